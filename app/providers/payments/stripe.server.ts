import Stripe from "stripe";
import type { z } from "zod";
import type { AppConfig } from "~/config/config.server";
import {
  cardSummary,
  customerSchema,
  intentState,
  setupIntentState,
  paymentIntentSchema,
  refundSchema,
  parseStripe,
  paymentMethodSchema,
  priceListSchema,
  priceLookupKey,
  priceSchema,
  setupIntentSchema,
  subscriptionData,
  subscriptionListSchema,
  subscriptionSchema,
  type StripeSubscription,
} from "./stripe-objects.server";
import { readStripeWebhook } from "./stripe-webhook.server";
import {
  PaymentDeclined,
  PaymentsUnavailable,
  type CardSummary,
  type PaymentsProvider,
  type PricedPlan,
  type ProviderCoupon,
  type StartedIntent,
  type StartedSubscription,
} from "./types";

/**
 * Stripe (https://docs.stripe.com/api) through its SDK at the API version the SDK is built
 * for. Card details never pass through here: the browser confirms each client secret with
 * Stripe's Payment Element, and Stripe's signed webhooks tell us the outcome.
 */

export type StripeSettings = Pick<
  AppConfig,
  "stripeSecretKey" | "stripePublishableKey" | "stripeWebhookSecret" | "stripeApiBase"
>;

/** The retries the SDK makes of a request that failed on the way (each with its idempotency key). */
const MAX_NETWORK_RETRIES = 2;
const TIMEOUT_MS = 20_000;

/**
 * The SDK's client for the API at `apiBase` (Stripe's, or a local Stripe-compatible server).
 * Its fetch reads `globalThis.fetch` at each call, so a mock installed later (msw) still sees it.
 */
function stripeClient(secretKey: string, apiBase: string): Stripe {
  const base = new URL(apiBase);
  const insecure = base.protocol === "http:";
  const fetchAtCallTime: typeof fetch = (input, init) => globalThis.fetch(input, init);
  return new Stripe(secretKey, {
    apiVersion: Stripe.API_VERSION,
    httpClient: Stripe.createFetchHttpClient(fetchAtCallTime),
    host: base.hostname,
    port: base.port || (insecure ? 80 : 443),
    protocol: insecure ? "http" : "https",
    maxNetworkRetries: MAX_NETWORK_RETRIES,
    timeout: TIMEOUT_MS,
    telemetry: false,
  });
}

const UNAVAILABLE = "Card payments are not available just now. Nothing was charged; please try again in a few minutes.";
const COUPON_REFUSED = "This coupon is no longer valid";

/** Stripe's refusal in our terms: what a member can act on, what is an outage, and what is our fault. */
function stripeFailure(error: unknown): Error {
  if (!(error instanceof Stripe.errors.StripeError)) return error instanceof Error ? error : new Error(String(error));
  if (error instanceof Stripe.errors.StripeCardError || error.rawType === "card_error") {
    return new PaymentDeclined(error.message);
  }
  if (
    error instanceof Stripe.errors.StripeConnectionError ||
    error instanceof Stripe.errors.StripeAPIError ||
    error instanceof Stripe.errors.StripeRateLimitError
  ) {
    return new PaymentsUnavailable(UNAVAILABLE, { cause: error });
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError && isAboutCoupon(error)) {
    return new PaymentDeclined(COUPON_REFUSED, { cause: error });
  }
  // An invalid request, a wrong key, a reused idempotency key: a fault of ours to fix, not the member's.
  return new Error(`Stripe refused the request: ${error.message}`, { cause: error });
}

function isAboutCoupon(error: Stripe.errors.StripeError): boolean {
  return error.code === "coupon_expired" || /coupon/.test(error.param ?? "");
}

function isMissing(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeError && error.code === "resource_missing";
}

/** Awaits an SDK call and reads its reply with `schema`. */
async function reply<S extends z.ZodTypeAny>(schema: S, what: string, request: Promise<unknown>): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await request;
  } catch (error) {
    throw stripeFailure(error);
  }
  return parseStripe(schema, what, body);
}

function settingsOrThrow(settings: StripeSettings) {
  const {
    stripeSecretKey: secretKey,
    stripePublishableKey: publishableKey,
    stripeWebhookSecret: webhookSecret,
  } = settings;
  // The env schema requires all three with PAYMENTS=stripe; this guards a direct call.
  if (!secretKey || !publishableKey || !webhookSecret) {
    throw new Error("Stripe needs STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET");
  }
  return { secretKey, publishableKey, webhookSecret };
}

export function stripePayments(settings: StripeSettings): PaymentsProvider {
  const { secretKey, publishableKey, webhookSecret } = settingsOrThrow(settings);
  const stripe = stripeClient(secretKey, settings.stripeApiBase);
  const testMode = /^(sk|rk)_test_/.test(secretKey);

  /** The plan's recurring price: its own, or ours found by lookup key, or made now. */
  async function priceFor(plan: PricedPlan, idempotencyKey: string): Promise<string> {
    if (plan.providerPriceId) return plan.providerPriceId;
    if (!plan.interval) throw new Error(`The plan ${plan.id} has no interval to subscribe to`);
    const lookupKey = priceLookupKey({ ...plan, interval: plan.interval });
    const found = await reply(
      priceListSchema,
      "a list of prices",
      stripe.prices.list({ lookup_keys: [lookupKey], active: true, limit: 1 }),
    );
    if (found.data[0]) return found.data[0].id;
    const created = await reply(
      priceSchema,
      "a price",
      stripe.prices.create(
        {
          product_data: { name: plan.title },
          unit_amount: plan.amountCents,
          currency: plan.currency.toLowerCase(),
          recurring: { interval: plan.interval },
          lookup_key: lookupKey,
          // An archived price may hold the key; the new one takes it over.
          transfer_lookup_key: true,
          metadata: { plan_id: plan.id },
        },
        { idempotencyKey: `${idempotencyKey}-price` },
      ),
    );
    return created.id;
  }

  /** The coupon at Stripe: its own, or one under our coupon's id, made the first time it is used. */
  async function couponFor(coupon: ProviderCoupon, idempotencyKey: string): Promise<string> {
    if (coupon.providerRef) return coupon.providerRef;
    try {
      await stripe.coupons.retrieve(coupon.id);
      return coupon.id;
    } catch (error) {
      if (!isMissing(error)) throw stripeFailure(error);
    }
    try {
      await stripe.coupons.create(couponParams(coupon), { idempotencyKey: `${idempotencyKey}-coupon` });
    } catch (error) {
      // Another checkout made it in the meantime.
      if (!(error instanceof Stripe.errors.StripeError && error.code === "resource_already_exists")) {
        throw stripeFailure(error);
      }
    }
    return coupon.id;
  }

  const readSubscription = (id: string) =>
    reply(subscriptionSchema, "a subscription", stripe.subscriptions.retrieve(id));

  const updateSubscription = (id: string, params: Stripe.SubscriptionUpdateParams, idempotencyKey?: string) =>
    reply(
      subscriptionSchema,
      "a subscription",
      stripe.subscriptions.update(id, params, idempotencyKey ? { idempotencyKey } : undefined),
    );

  async function readPaymentMethod(id: string): Promise<CardSummary | null> {
    const method = await reply(paymentMethodSchema, "a payment method", stripe.paymentMethods.retrieve(id));
    return method.card ? cardSummary(method.card) : null;
  }

  /** The customer's live subscriptions (Stripe's list leaves out the canceled ones). */
  const liveSubscriptions = (customer: string) =>
    reply(subscriptionListSchema, "a list of subscriptions", stripe.subscriptions.list({ customer, limit: 100 }));

  return {
    name: "stripe",
    client: { kind: "stripe", publishableKey },
    couponsLink: testMode ? "https://dashboard.stripe.com/test/coupons" : "https://dashboard.stripe.com/coupons",

    async createCustomer({ email, name, userId }, idempotencyKey) {
      const customer = await reply(
        customerSchema,
        "a customer",
        stripe.customers.create(
          { email, name: name ?? undefined, metadata: userId ? { user_id: userId } : undefined },
          { idempotencyKey },
        ),
      );
      return { customerRef: customer.id };
    },

    async startSubscription({ customerRef, plan, coupon, idempotencyKey, metadata }) {
      const price = await priceFor(plan, idempotencyKey);
      const couponRef = coupon ? await couponFor(coupon, idempotencyKey) : null;
      const subscription = await reply(
        subscriptionSchema,
        "a subscription",
        stripe.subscriptions.create(
          {
            customer: customerRef,
            items: [{ price }],
            // Incomplete until the member confirms the first invoice's payment in the browser.
            payment_behavior: "default_incomplete",
            payment_settings: { save_default_payment_method: "on_subscription" },
            expand: ["latest_invoice.confirmation_secret"],
            discounts: couponRef ? [{ coupon: couponRef }] : undefined,
            metadata: { ...metadata, plan_id: plan.id },
          },
          { idempotencyKey },
        ),
      );
      return startedSubscription(subscription);
    },

    async startPayment({ customerRef, email, amountCents, currency, description, idempotencyKey, metadata }) {
      const intent = await reply(
        paymentIntentSchema,
        "a payment intent",
        stripe.paymentIntents.create(
          {
            amount: amountCents,
            currency: currency.toLowerCase(),
            customer: customerRef ?? undefined,
            receipt_email: email,
            description,
            automatic_payment_methods: { enabled: true },
            metadata,
          },
          { idempotencyKey },
        ),
      );
      return startedIntent(intent);
    },

    async readIntent(intentRef) {
      // A card update's return page reads its setup intent, a payment's its payment intent.
      if (intentRef.startsWith("seti_")) {
        return setupIntentState(
          await reply(setupIntentSchema, "a setup intent", stripe.setupIntents.retrieve(intentRef)),
        );
      }
      return intentState(
        await reply(paymentIntentSchema, "a payment intent", stripe.paymentIntents.retrieve(intentRef)),
      );
    },

    async cancelSubscription(subscriptionRef, { atPeriodEnd }) {
      const subscription = atPeriodEnd
        ? await updateSubscription(subscriptionRef, { cancel_at_period_end: true })
        : await reply(subscriptionSchema, "a subscription", stripe.subscriptions.cancel(subscriptionRef));
      return subscriptionData(subscription);
    },

    async deleteCustomer(customerRef) {
      try {
        await reply(customerSchema, "a deleted customer", stripe.customers.del(customerRef));
      } catch (error) {
        if (!isMissing(error instanceof Error ? error.cause : error)) throw error;
      }
    },

    async refundPayment({ intentRef, amountCents, idempotencyKey, metadata }) {
      const refund = await reply(
        refundSchema,
        "a refund",
        stripe.refunds.create({ payment_intent: intentRef, amount: amountCents, metadata }, { idempotencyKey }),
      );
      if (refund.status === "failed" || refund.status === "canceled")
        throw new Error(`Stripe could not refund ${intentRef}: ${refund.status}`);
      return { refundRef: refund.id, amountCents: refund.amount };
    },

    async resumeSubscription(subscriptionRef) {
      return subscriptionData(await updateSubscription(subscriptionRef, { cancel_at_period_end: false }));
    },

    async changePlan(subscriptionRef, plan, idempotencyKey) {
      const price = await priceFor(plan, idempotencyKey);
      const item = (await readSubscription(subscriptionRef)).items.data[0];
      if (!item) throw new Error(`The subscription ${subscriptionRef} has no item to change`);
      const changed = await updateSubscription(
        subscriptionRef,
        {
          items: [{ id: item.id, price }],
          proration_behavior: "create_prorations",
          metadata: { plan_id: plan.id },
        },
        idempotencyKey,
      );
      return subscriptionData(changed);
    },

    async startCardUpdate(customerRef, idempotencyKey, metadata) {
      const intent = await reply(
        setupIntentSchema,
        "a setup intent",
        stripe.setupIntents.create({ customer: customerRef, usage: "off_session", metadata }, { idempotencyKey }),
      );
      return startedIntent(intent);
    },

    async readCard(customerRef) {
      const customer = await reply(customerSchema, "a customer", stripe.customers.retrieve(customerRef));
      if (customer.deleted) return null;
      const methodRef =
        customer.invoice_settings?.default_payment_method ??
        (await liveSubscriptions(customerRef)).data.find((s) => s.default_payment_method)?.default_payment_method;
      return methodRef ? readPaymentMethod(methodRef) : null;
    },

    async setDefaultCard(customerRef, paymentMethodRef) {
      await reply(
        customerSchema,
        "a customer",
        stripe.customers.update(customerRef, { invoice_settings: { default_payment_method: paymentMethodRef } }),
      );
      const subscriptions = (await liveSubscriptions(customerRef)).data;
      for (const subscription of subscriptions) {
        const own = subscription.default_payment_method;
        if (own && own !== paymentMethodRef) {
          await updateSubscription(subscription.id, { default_payment_method: paymentMethodRef });
        }
      }
      return readPaymentMethod(paymentMethodRef);
    },

    readWebhook(rawBody, signature) {
      return readStripeWebhook(stripe, webhookSecret, rawBody, signature);
    },
  };
}

function couponParams(coupon: ProviderCoupon): Stripe.CouponCreateParams {
  return {
    id: coupon.id,
    name: coupon.name,
    duration: coupon.duration,
    duration_in_months: coupon.duration === "repeating" ? (coupon.durationInMonths ?? 1) : undefined,
    ...(coupon.amountOff !== null
      ? { amount_off: coupon.amountOff, currency: (coupon.currency ?? "usd").toLowerCase() }
      : { percent_off: coupon.percentOff ?? undefined }),
  };
}

function startedSubscription(subscription: StripeSubscription): StartedSubscription {
  const data = subscriptionData(subscription);
  const invoice = subscription.latest_invoice;
  if (!invoice || typeof invoice === "string") {
    throw new Error(`Stripe sent the subscription ${subscription.id} without its first invoice`);
  }
  // Nothing due (a 100 % coupon): Stripe sends no secret, and the subscription is active already.
  const clientSecret = invoice.amount_due > 0 ? (invoice.confirmation_secret?.client_secret ?? null) : null;
  if (invoice.amount_due > 0 && !clientSecret) {
    throw new Error(`Stripe sent the invoice ${invoice.id} without the secret to pay it with`);
  }
  return {
    subscriptionRef: subscription.id,
    status: data.status,
    clientSecret,
    currentPeriodStart: data.currentPeriodStart,
    currentPeriodEnd: data.currentPeriodEnd,
    amountDueCents: invoice.amount_due,
  };
}

function startedIntent(intent: { id: string; client_secret?: string | null; status: StartedIntent["status"] }) {
  if (!intent.client_secret) throw new Error(`Stripe sent the intent ${intent.id} without its client secret`);
  return { intentRef: intent.id, clientSecret: intent.client_secret, status: intent.status };
}
