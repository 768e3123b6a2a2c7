import { http, HttpResponse, type HttpHandler, type JsonBodyType } from "msw";
import Stripe from "stripe";
import { addInterval } from "~/domain/billing";
import { FakeProvider, type ProviderCall } from "./fake-provider";
import { formList, formRecord, formText, parseStripeForm, type Form } from "./stripe-form";
import {
  cardMethodObject,
  chargeObject,
  couponObject,
  customerObject,
  eventObject,
  firstInvoiceObject,
  now,
  paymentIntentObject,
  priceObject,
  productObject,
  setupIntentObject,
  subscriptionItemObject,
  subscriptionObject,
  type StripeObject,
} from "./stripe-objects";

/**
 * A small Stripe in memory, on Stripe's wire: form-encoded requests, JSON objects of the SDK's
 * pinned API version, `{ error: { type, code, message } }` refusals with Stripe's statuses, and
 * a repeated Idempotency-Key answered with the first reply. It keeps every request for tests
 * to read, and lets a test decline the next request or break the API.
 */

export const STRIPE_API = "https://api.stripe.com";
export const STRIPE_SECRET_KEY = "sk_test_memberhall0000000000000000";
export const STRIPE_PUBLISHABLE_KEY = "pk_test_memberhall0000000000000000";
export const STRIPE_WEBHOOK_SECRET = "whsec_memberhall0000000000000000";

export type StripeCall = ProviderCall & {
  /** The form body, or the query of a GET or DELETE. */
  params: Form;
  idempotencyKey: string | null;
  stripeVersion: string | null;
  authorization: string | null;
};

type Reply = { status: number; body: unknown; replayed?: boolean };
/** What a test may make the next requests meet: a 500, a 429, a dropped connection, or a 402 card decline. */
type Failure = "server" | "rate_limit" | "network" | "decline";

/** Stripe's test cards, as the browser would confirm them. */
export const TEST_CARDS = {
  visa: { brand: "visa", last4: "4242", decline: null },
  mastercard: { brand: "mastercard", last4: "4444", decline: null },
  declined: { brand: "visa", last4: "0002", decline: "generic_decline" },
} as const;
type TestCard = (typeof TEST_CARDS)[keyof typeof TEST_CARDS];

const DECLINED = "Your card was declined.";

class StripeRefusal {
  constructor(
    readonly status: number,
    readonly error: { type: string; message: string; code?: string; decline_code?: string; param?: string },
  ) {}
}

const invalid = (message: string, fields: { code?: string; param?: string } = {}) =>
  new StripeRefusal(400, { type: "invalid_request_error", message, ...fields });

const missing = (kind: string, id: string, param = "id") =>
  new StripeRefusal(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    message: `No such ${kind}: '${id}'`,
    param,
  });

const FAILURES: Record<Exclude<Failure, "network">, StripeRefusal> = {
  server: new StripeRefusal(500, {
    type: "api_error",
    message: "Sorry, something went wrong. We've already been notified of the problem.",
  }),
  rate_limit: new StripeRefusal(429, {
    type: "invalid_request_error",
    code: "rate_limit",
    message: "Too many requests hit the API too quickly. We recommend an exponential backoff of your requests.",
  }),
  decline: new StripeRefusal(402, {
    type: "card_error",
    code: "card_declined",
    decline_code: "generic_decline",
    message: DECLINED,
  }),
};

function refusal({ status, error }: StripeRefusal): Reply {
  return { status, body: { error: { ...error, doc_url: "https://stripe.com/docs/error-codes" } } };
}

function discountOf(coupon: StripeObject | null, amount: number): number {
  if (!coupon) return 0;
  if (coupon.amount_off) return coupon.amount_off as number;
  return Math.round((amount * (coupon.percent_off as number)) / 100);
}

export class FakeStripe extends FakeProvider<StripeCall, Failure> {
  readonly customers = new Map<string, StripeObject>();
  readonly products = new Map<string, StripeObject>();
  readonly prices = new Map<string, StripeObject>();
  readonly coupons = new Map<string, StripeObject>();
  readonly subscriptions = new Map<string, StripeObject>();
  readonly invoices = new Map<string, StripeObject>();
  readonly paymentIntents = new Map<string, StripeObject>();
  readonly setupIntents = new Map<string, StripeObject>();
  readonly paymentMethods = new Map<string, StripeObject>();
  readonly charges = new Map<string, StripeObject>();
  /** Each invoice's payment intent (Stripe links them through the invoice's payments). */
  private readonly invoiceIntents = new Map<string, string>();
  private readonly replies = new Map<string, Reply & { fingerprint: string }>();
  private counter = 0;

  reset() {
    this.resetRequests();
    const maps = [this.customers, this.products, this.prices, this.coupons, this.subscriptions, this.invoices];
    for (const map of maps) map.clear();
    for (const map of [this.paymentIntents, this.setupIntents, this.paymentMethods, this.charges]) map.clear();
    this.invoiceIntents.clear();
    this.replies.clear();
  }

  id(prefix: string): string {
    this.counter += 1;
    return `${prefix}_Mh${this.counter.toString(36).padStart(12, "0")}`;
  }

  /** An event around `object`, as Stripe delivers it. */
  event(type: string, object: unknown, previousAttributes?: Record<string, unknown>) {
    return eventObject(this.id("evt"), this.id("req"), type, object, previousAttributes);
  }

  // ── the browser's side: Stripe.js confirming a client secret with a test card ──

  /** Confirms a payment or setup intent with a card; a declined one waits for another card, as at Stripe. */
  confirm(clientSecret: string, card: TestCard): StripeObject {
    const intentId = clientSecret.split("_secret_")[0]!;
    const intent = this.paymentIntents.get(intentId) ?? this.setupIntents.get(intentId);
    if (!intent || intent.client_secret !== clientSecret) throw new Error(`no intent for ${clientSecret}`);
    const method = cardMethodObject(this.id("pm"), card, card.decline ? null : (intent.customer as string | null));
    this.paymentMethods.set(method.id, method);
    const errorField = intent.object === "setup_intent" ? "last_setup_error" : "last_payment_error";
    if (card.decline) {
      intent.status = "requires_payment_method";
      intent[errorField] = {
        type: "card_error",
        code: "card_declined",
        decline_code: card.decline,
        message: DECLINED,
        payment_method: method,
      };
      return intent;
    }
    Object.assign(intent, { status: "succeeded", payment_method: method.id, [errorField]: null });
    if (intent.object === "payment_intent") this.settle(intent, method.id);
    return intent;
  }

  /** Refunds part or all of a paid intent's charge. */
  refund(intentId: string, amount?: number): StripeObject {
    const intent = this.paymentIntents.get(intentId)!;
    const charge = this.charges.get(intent.latest_charge as string)!;
    charge.amount_refunded = amount ?? (charge.amount as number);
    charge.refunded = charge.amount_refunded === charge.amount;
    return charge;
  }

  private settle(intent: StripeObject, methodId: string) {
    const charge = chargeObject(this.id("ch"), intent, methodId);
    this.charges.set(charge.id, charge);
    Object.assign(intent, { amount_received: intent.amount, latest_charge: charge.id });
    const invoiceId = [...this.invoiceIntents].find(([, paidBy]) => paidBy === intent.id)?.[0];
    const invoice = invoiceId ? this.invoices.get(invoiceId) : undefined;
    if (!invoice) return;
    Object.assign(invoice, { status: "paid", amount_paid: invoice.amount_due, amount_remaining: 0, attempted: true });
    const { subscription } = (invoice.parent as { subscription_details: { subscription: string } })
      .subscription_details;
    // The first payment activates the subscription, and save_default_payment_method=on_subscription keeps its card.
    Object.assign(this.subscriptions.get(subscription)!, { status: "active", default_payment_method: methodId });
  }

  // ── the API ──

  handle(method: string, path: string, params: Form, idempotencyKey: string | null): Reply {
    const route = ROUTES.find((r) => r.method === method && r.pattern.test(path));
    if (!route)
      return refusal(
        new StripeRefusal(404, {
          type: "invalid_request_error",
          message: `Unrecognized request URL (${method}: ${path}).`,
        }),
      );
    const fingerprint = `${method} ${path} ${JSON.stringify(params)}`;
    const replay = idempotencyKey ? this.replies.get(idempotencyKey) : undefined;
    if (replay && replay.fingerprint !== fingerprint) {
      return refusal(
        new StripeRefusal(400, {
          type: "idempotency_error",
          message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
        }),
      );
    }
    if (replay) return { status: replay.status, body: replay.body, replayed: true };
    let reply: Reply;
    try {
      reply = { status: 200, body: route.run(this, params, decodeURIComponent(route.pattern.exec(path)?.[1] ?? "")) };
    } catch (error) {
      if (!(error instanceof StripeRefusal)) throw error;
      reply = refusal(error);
    }
    // Stripe keeps the outcome of a request it carried out, a success or a decline alike.
    if (idempotencyKey && (reply.status === 200 || reply.status === 402)) {
      this.replies.set(idempotencyKey, { ...reply, fingerprint });
    }
    return reply;
  }

  get(kind: string, map: Map<string, StripeObject>, id: string, param?: string): StripeObject {
    const found = map.get(id);
    if (!found) throw missing(kind, id, param);
    return found;
  }

  createCustomer(params: Form): StripeObject {
    const customer = customerObject(this.id("cus"), {
      email: formText(params.email) ?? null,
      name: formText(params.name) ?? null,
      metadata: formRecord(params.metadata),
    });
    this.customers.set(customer.id, customer);
    return customer;
  }

  updateCustomer(id: string, params: Form): StripeObject {
    const customer = this.get("customer", this.customers, id);
    const methodId = formText(formRecord(params.invoice_settings).default_payment_method);
    if (methodId === undefined) return customer;
    const param = "invoice_settings[default_payment_method]";
    const method = this.get("PaymentMethod", this.paymentMethods, methodId, param);
    if (method.customer !== id) {
      throw invalid(`The customer does not have a payment method with the ID ${methodId}.`, { param });
    }
    (customer.invoice_settings as Record<string, unknown>).default_payment_method = methodId;
    return customer;
  }

  /** Stripe removes the customer with its cards and cancels its subscriptions at once. */
  deleteCustomer(id: string): StripeObject {
    this.get("customer", this.customers, id);
    this.customers.delete(id);
    for (const subscription of this.subscriptions.values()) {
      if (subscription.customer === id && subscription.status !== "canceled") this.cancelSubscription(subscription.id);
    }
    for (const [methodId, method] of this.paymentMethods)
      if (method.customer === id) this.paymentMethods.delete(methodId);
    return { id, object: "customer", deleted: true };
  }

  /** `POST /v1/refunds`: part or all of a paid intent's charge, never more than is left of it. */
  createRefund(params: Form): StripeObject {
    const intentId = formText(params.payment_intent) ?? "";
    const intent = this.get("payment_intent", this.paymentIntents, intentId, "payment_intent");
    const charge = intent.latest_charge ? this.charges.get(intent.latest_charge as string) : undefined;
    if (!charge)
      throw invalid(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, {
        code: "charge_not_refundable",
      });
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    const amount = params.amount === undefined ? left : Number(params.amount);
    if (!Number.isInteger(amount) || amount <= 0 || amount > left)
      throw invalid(
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
        { code: "amount_too_large", param: "amount" },
      );
    this.refund(intentId, (charge.amount_refunded as number) + amount);
    return {
      id: this.id("re"),
      object: "refund",
      amount,
      charge: charge.id,
      currency: charge.currency,
      metadata: formRecord(params.metadata),
      payment_intent: intentId,
      reason: null,
      status: "succeeded",
      created: Math.floor(Date.now() / 1000),
    };
  }

  createPrice(params: Form): StripeObject {
    const lookupKey = formText(params.lookup_key) ?? null;
    const holder = [...this.prices.values()].find((p) => lookupKey && p.lookup_key === lookupKey);
    if (holder && params.transfer_lookup_key !== "true") {
      throw invalid(`A price (\`${holder.id}\`) already uses that lookup key.`, { param: "lookup_key" });
    }
    if (holder) holder.lookup_key = null;
    const product = productObject(this.id("prod"), formText(formRecord(params.product_data).name) ?? "Membership");
    this.products.set(product.id, product);
    const price = priceObject(this.id("price"), {
      product: product.id,
      currency: formText(params.currency) ?? "usd",
      unitAmount: Number(params.unit_amount),
      interval: formRecord(params.recurring).interval ?? null,
      lookupKey,
      metadata: formRecord(params.metadata),
    });
    this.prices.set(price.id, price);
    return price;
  }

  listPrices(params: Form) {
    const keys = formList(params.lookup_keys);
    const data = [...this.prices.values()].filter(
      (p) => (!keys.length || keys.includes(p.lookup_key as string)) && (params.active !== "true" || p.active),
    );
    return { object: "list", data, has_more: false, url: "/v1/prices" };
  }

  createCoupon(params: Form): StripeObject {
    const id = formText(params.id) ?? this.id("co");
    if (this.coupons.has(id)) throw invalid("Coupon already exists.", { code: "resource_already_exists", param: "id" });
    const number = (value: unknown) => (typeof value === "string" ? Number(value) : null);
    const coupon = couponObject(id, {
      name: formText(params.name) ?? null,
      duration: formText(params.duration) ?? "once",
      durationInMonths: number(params.duration_in_months),
      amountOff: number(params.amount_off),
      currency: formText(params.currency) ?? null,
      percentOff: number(params.percent_off),
    });
    this.coupons.set(id, coupon);
    return coupon;
  }

  private usableCoupon(id: string): StripeObject {
    const param = "discounts[0][coupon]";
    const coupon = this.get("coupon", this.coupons, id, param);
    if (!coupon.valid) throw invalid(`Coupon expired: ${id}`, { code: "coupon_expired", param });
    return coupon;
  }

  createSubscription(params: Form): StripeObject {
    const customer = this.get("customer", this.customers, formText(params.customer) ?? "", "customer");
    const price = this.get("price", this.prices, formRecord(formList(params.items)[0]).price ?? "", "items[0][price]");
    const couponId = formRecord(formList(params.discounts)[0]).coupon;
    const coupon = couponId ? this.usableCoupon(couponId) : null;
    const amountDue = Math.max(0, (price.unit_amount as number) - discountOf(coupon, price.unit_amount as number));
    const start = new Date(now() * 1000);
    const end = addInterval(start, (price.recurring as { interval: "month" | "year" }).interval);
    const id = this.id("sub");
    const item = subscriptionItemObject(this.id("si"), id, price, start, end);
    const subscription = subscriptionObject(id, {
      customer: customer.id,
      currency: price.currency as string,
      item,
      discounts: coupon ? [this.id("di")] : [],
      metadata: formRecord(params.metadata),
      saveDefaultPaymentMethod: formRecord(params.payment_settings).save_default_payment_method ?? "off",
      // Nothing due: Stripe pays the invoice itself and the subscription starts.
      status: amountDue > 0 ? "incomplete" : "active",
    });
    const productName = this.products.get(price.product as string)?.name as string;
    const invoice = firstInvoiceObject(this.id("in"), this.id("il"), { subscription, item, productName, amountDue });
    this.invoices.set(invoice.id, invoice);
    if (amountDue > 0) {
      const intent = this.newPaymentIntent({
        amount: amountDue,
        currency: subscription.currency as string,
        customer: customer.id,
        description: "Subscription creation",
        receiptEmail: null,
        metadata: {},
      });
      this.invoiceIntents.set(invoice.id, intent.id);
    }
    subscription.latest_invoice = invoice.id;
    this.subscriptions.set(id, subscription);
    return subscription;
  }

  /** A subscription as a reply shows it: `latest_invoice` expanded, and its secret, only when asked. */
  subscriptionView(subscription: StripeObject, params: Form) {
    const expand = formList(params.expand).map(String);
    if (!expand.some((path) => path.startsWith("latest_invoice"))) return subscription;
    const invoiceId = subscription.latest_invoice as string;
    const invoice = this.invoices.get(invoiceId)!;
    if (!expand.includes("latest_invoice.confirmation_secret")) return { ...subscription, latest_invoice: invoice };
    const intent = this.paymentIntents.get(this.invoiceIntents.get(invoiceId) ?? "");
    const secret = intent ? { client_secret: intent.client_secret, type: "payment_intent" } : null;
    return { ...subscription, latest_invoice: { ...invoice, confirmation_secret: secret } };
  }

  updateSubscription(id: string, params: Form): StripeObject {
    const subscription = this.get("subscription", this.subscriptions, id);
    if (params.cancel_at_period_end !== undefined) {
      subscription.cancel_at_period_end = params.cancel_at_period_end === "true";
      subscription.canceled_at = subscription.cancel_at_period_end ? now() : null;
    }
    const methodId = formText(params.default_payment_method);
    if (methodId !== undefined) {
      subscription.default_payment_method = this.get("PaymentMethod", this.paymentMethods, methodId).id;
    }
    const change = formRecord(formList(params.items)[0]);
    if (change.price) {
      const item = (subscription.items as { data: Array<Record<string, unknown>> }).data.find(
        (i) => i.id === change.id,
      );
      if (!item) throw missing("subscription item", change.id ?? "", "items[0][id]");
      item.price = this.get("price", this.prices, change.price, "items[0][price]");
    }
    subscription.metadata = { ...(subscription.metadata as object), ...formRecord(params.metadata) };
    return subscription;
  }

  cancelSubscription(id: string): StripeObject {
    const subscription = this.get("subscription", this.subscriptions, id);
    return Object.assign(subscription, { status: "canceled", canceled_at: now(), ended_at: now() });
  }

  listSubscriptions(params: Form) {
    // Stripe's default list leaves out the canceled subscriptions.
    const data = [...this.subscriptions.values()].filter(
      (s) => s.customer === params.customer && s.status !== "canceled" && s.status !== "incomplete_expired",
    );
    return { object: "list", data, has_more: false, url: "/v1/subscriptions" };
  }

  createPaymentIntent(params: Form): StripeObject {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 50) {
      throw invalid("Amount must be at least $0.50 usd", { code: "amount_too_small", param: "amount" });
    }
    const customer = formText(params.customer) ?? null;
    if (customer) this.get("customer", this.customers, customer, "customer");
    return this.newPaymentIntent({
      amount,
      currency: formText(params.currency) ?? "usd",
      customer,
      description: formText(params.description) ?? null,
      receiptEmail: formText(params.receipt_email) ?? null,
      metadata: formRecord(params.metadata),
    });
  }

  private newPaymentIntent(fields: Parameters<typeof paymentIntentObject>[2]): StripeObject {
    const id = this.id("pi");
    const intent = paymentIntentObject(id, `${id}_secret_${this.id("s").slice(2)}`, fields);
    this.paymentIntents.set(id, intent);
    return intent;
  }

  createSetupIntent(params: Form): StripeObject {
    const customer = this.get("customer", this.customers, formText(params.customer) ?? "", "customer");
    const id = this.id("seti");
    const intent = setupIntentObject(id, `${id}_secret_${this.id("s").slice(2)}`, {
      customer: customer.id,
      usage: formText(params.usage) ?? "off_session",
      metadata: formRecord(params.metadata),
    });
    this.setupIntents.set(id, intent);
    return intent;
  }
}

type Route = { method: string; pattern: RegExp; run: (stripe: FakeStripe, params: Form, id: string) => unknown };

const ROUTES: Route[] = [
  { method: "POST", pattern: /^\/v1\/customers$/, run: (s, p) => s.createCustomer(p) },
  { method: "GET", pattern: /^\/v1\/customers\/([^/]+)$/, run: (s, _p, id) => s.get("customer", s.customers, id) },
  { method: "POST", pattern: /^\/v1\/customers\/([^/]+)$/, run: (s, p, id) => s.updateCustomer(id, p) },
  { method: "DELETE", pattern: /^\/v1\/customers\/([^/]+)$/, run: (s, _p, id) => s.deleteCustomer(id) },
  { method: "GET", pattern: /^\/v1\/prices$/, run: (s, p) => s.listPrices(p) },
  { method: "POST", pattern: /^\/v1\/prices$/, run: (s, p) => s.createPrice(p) },
  { method: "GET", pattern: /^\/v1\/coupons\/([^/]+)$/, run: (s, _p, id) => s.get("coupon", s.coupons, id) },
  { method: "POST", pattern: /^\/v1\/coupons$/, run: (s, p) => s.createCoupon(p) },
  { method: "POST", pattern: /^\/v1\/subscriptions$/, run: (s, p) => s.subscriptionView(s.createSubscription(p), p) },
  { method: "GET", pattern: /^\/v1\/subscriptions$/, run: (s, p) => s.listSubscriptions(p) },
  {
    method: "GET",
    pattern: /^\/v1\/subscriptions\/([^/]+)$/,
    run: (s, p, id) => s.subscriptionView(s.get("subscription", s.subscriptions, id), p),
  },
  {
    method: "POST",
    pattern: /^\/v1\/subscriptions\/([^/]+)$/,
    run: (s, p, id) => s.subscriptionView(s.updateSubscription(id, p), p),
  },
  { method: "DELETE", pattern: /^\/v1\/subscriptions\/([^/]+)$/, run: (s, _p, id) => s.cancelSubscription(id) },
  { method: "POST", pattern: /^\/v1\/payment_intents$/, run: (s, p) => s.createPaymentIntent(p) },
  {
    method: "GET",
    pattern: /^\/v1\/payment_intents\/([^/]+)$/,
    run: (s, _p, id) => s.get("payment_intent", s.paymentIntents, id, "intent"),
  },
  { method: "POST", pattern: /^\/v1\/refunds$/, run: (s, p) => s.createRefund(p) },
  { method: "POST", pattern: /^\/v1\/setup_intents$/, run: (s, p) => s.createSetupIntent(p) },
  {
    method: "GET",
    pattern: /^\/v1\/setup_intents\/([^/]+)$/,
    run: (s, _p, id) => s.get("setup_intent", s.setupIntents, id, "intent"),
  },
  {
    method: "GET",
    pattern: /^\/v1\/payment_methods\/([^/]+)$/,
    run: (s, _p, id) => s.get("PaymentMethod", s.paymentMethods, id),
  },
];

/** The one fake Stripe the tests share; `stripe.reset()` between tests. */
export const stripe = new FakeStripe();

async function callOf(request: Request): Promise<StripeCall> {
  const url = new URL(request.url);
  return {
    origin: url.origin,
    method: request.method,
    path: url.pathname,
    params: parseStripeForm(request.method === "POST" ? await request.text() : url.searchParams),
    idempotencyKey: request.headers.get("idempotency-key"),
    stripeVersion: request.headers.get("stripe-version"),
    authorization: request.headers.get("authorization"),
  };
}

function answer(reply: Reply) {
  return HttpResponse.json(reply.body as JsonBodyType, {
    status: reply.status,
    headers: {
      "Request-Id": stripe.id("req"),
      "Stripe-Version": Stripe.API_VERSION,
      ...(reply.replayed ? { "Idempotent-Replayed": "true" } : {}),
    },
  });
}

/** Stripe's API at `base`: the SDK's default address, or a local Stripe-compatible server's. */
export function stripeHandlers(base = STRIPE_API, fake = stripe): HttpHandler[] {
  return [
    http.all(`${base}/v1/*`, async ({ request }) => {
      const call = await callOf(request);
      const failure = fake.receive(call);
      if (failure === "network") return HttpResponse.error();
      if (call.authorization !== `Bearer ${STRIPE_SECRET_KEY}`) {
        return answer(
          refusal(
            new StripeRefusal(401, {
              type: "invalid_request_error",
              message: "Invalid API Key provided: sk_test_****",
            }),
          ),
        );
      }
      if (failure) return answer(refusal(FAILURES[failure]));
      return answer(fake.handle(call.method, call.path, call.params, call.idempotencyKey));
    }),
  ];
}

export const handlers = stripeHandlers();
