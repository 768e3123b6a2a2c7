import Stripe from "stripe";
import { beforeEach, describe, expect, it } from "vitest";
import { stripePayments, type StripeSettings } from "~/providers/payments/stripe.server";
import {
  InvalidWebhookSignature,
  PaymentDeclined,
  PaymentsUnavailable,
  type PaymentsProvider,
  type PricedPlan,
  type ProviderCoupon,
} from "~/providers/payments/types";
import { mockServer } from "../mocks/server";
import {
  STRIPE_API,
  STRIPE_PUBLISHABLE_KEY,
  STRIPE_SECRET_KEY,
  STRIPE_WEBHOOK_SECRET,
  TEST_CARDS,
  stripe,
  stripeHandlers,
} from "../mocks/stripe";
import { parseStripeForm } from "../mocks/stripe-form";

const settings: StripeSettings = {
  stripeSecretKey: STRIPE_SECRET_KEY,
  stripePublishableKey: STRIPE_PUBLISHABLE_KEY,
  stripeWebhookSecret: STRIPE_WEBHOOK_SECRET,
  stripeApiBase: STRIPE_API,
};

const monthly: PricedPlan = {
  id: "member_monthly",
  title: "Monthly membership",
  kind: "subscription",
  amountCents: 2500,
  currency: "usd",
  interval: "month",
  providerPriceId: null,
};
const yearly: PricedPlan = {
  ...monthly,
  id: "member_yearly",
  title: "Yearly membership",
  amountCents: 25000,
  interval: "year",
};
const LOOKUP_KEY = "memberhall_member_monthly_2500_usd_month";

const tenOff: ProviderCoupon = {
  id: "WELCOME10",
  name: "Welcome",
  providerRef: null,
  amountOff: 1000,
  percentOff: null,
  currency: "usd",
  duration: "once",
  durationInMonths: null,
};

// Made as the module loads, before msw starts (tests/setup/msw.ts): the client must still reach it.
const madeBeforeMsw = stripePayments(settings);

let payments: PaymentsProvider;

beforeEach(() => {
  stripe.reset();
  payments = stripePayments(settings);
});

async function customer(email = "ada@example.org", provider = payments) {
  return (await provider.createCustomer({ email, name: "Ada", userId: null }, `customer-${email}`)).customerRef;
}

async function subscribe(checkoutId: string, options: { plan?: PricedPlan; coupon?: ProviderCoupon | null } = {}) {
  return payments.startSubscription({
    customerRef: await customer(`${checkoutId}@example.org`),
    plan: options.plan ?? monthly,
    coupon: options.coupon ?? null,
    idempotencyKey: checkoutId,
    metadata: { checkout_id: checkoutId },
  });
}

/** A donation of 15.00 by a visitor, as the payments service starts one. */
function donate(input: Partial<Parameters<PaymentsProvider["startPayment"]>[0]> = {}) {
  return payments.startPayment({
    customerRef: null,
    email: "a@example.org",
    amountCents: 1500,
    currency: "usd",
    description: "Donation",
    idempotencyKey: "checkout-7",
    metadata: { checkout_id: "checkout-7" },
    ...input,
  });
}

describe("Stripe's form encoding as the fake reads it", () => {
  it("reads nested brackets, indexed and appended lists", () => {
    expect(parseStripeForm("items[0][price]=p&expand[]=a&expand[]=b&metadata[checkout_id]=c&x=1")).toEqual({
      items: [{ price: "p" }],
      expand: ["a", "b"],
      metadata: { checkout_id: "c" },
      x: "1",
    });
  });
});

describe("Stripe adapter (contract, against msw)", () => {
  it("gives the browser the publishable key and admins the coupons page of the key's mode", () => {
    expect(payments.name).toBe("stripe");
    expect(payments.client).toEqual({ kind: "stripe", publishableKey: STRIPE_PUBLISHABLE_KEY });
    expect(payments.couponsLink).toBe("https://dashboard.stripe.com/test/coupons");
    const live = stripePayments({ ...settings, stripeSecretKey: "sk_live_memberhall0000" });
    expect(live.couponsLink).toBe("https://dashboard.stripe.com/coupons");
  });

  it("creates a customer with its e-mail, name and user id, under the idempotency key, at the pinned API version", async () => {
    const { customerRef } = await payments.createCustomer(
      { email: "ada@example.org", name: "Ada Lovelace", userId: "user-1" },
      "checkout-1",
    );
    expect(customerRef).toMatch(/^cus_/);
    expect(stripe.calls).toEqual([
      {
        origin: STRIPE_API,
        method: "POST",
        path: "/v1/customers",
        params: { email: "ada@example.org", name: "Ada Lovelace", metadata: { user_id: "user-1" } },
        idempotencyKey: "checkout-1",
        stripeVersion: Stripe.API_VERSION,
        authorization: `Bearer ${STRIPE_SECRET_KEY}`,
      },
    ]);
    expect(stripe.customers.get(customerRef)).toMatchObject({ email: "ada@example.org" });
  });

  it("starts an incomplete subscription whose first invoice's secret the browser confirms", async () => {
    const started = await subscribe("checkout-1");
    const [list, price, create] = stripe.calls.slice(1);
    expect(list).toMatchObject({
      method: "GET",
      path: "/v1/prices",
      params: { lookup_keys: [LOOKUP_KEY], active: "true" },
    });
    expect(price).toMatchObject({
      method: "POST",
      path: "/v1/prices",
      params: {
        product_data: { name: "Monthly membership" },
        unit_amount: "2500",
        currency: "usd",
        recurring: { interval: "month" },
        lookup_key: LOOKUP_KEY,
        metadata: { plan_id: "member_monthly" },
      },
      idempotencyKey: "checkout-1-price",
    });
    const priceId = [...stripe.prices.keys()][0];
    expect(create).toMatchObject({
      method: "POST",
      path: "/v1/subscriptions",
      params: {
        customer: expect.stringMatching(/^cus_/),
        items: [{ price: priceId }],
        payment_behavior: "default_incomplete",
        payment_settings: { save_default_payment_method: "on_subscription" },
        expand: ["latest_invoice.confirmation_secret"],
        metadata: { checkout_id: "checkout-1", plan_id: "member_monthly" },
      },
      idempotencyKey: "checkout-1",
    });
    expect(create!.params.discounts).toBeUndefined();
    const intent = [...stripe.paymentIntents.values()][0]!;
    expect(started).toEqual({
      subscriptionRef: expect.stringMatching(/^sub_/),
      status: "INCOMPLETE",
      clientSecret: intent.client_secret,
      currentPeriodStart: expect.any(Date),
      currentPeriodEnd: expect.any(Date),
      amountDueCents: 2500,
    });
    const days = (started.currentPeriodEnd!.getTime() - started.currentPeriodStart!.getTime()) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(28);
    expect(days).toBeLessThanOrEqual(31);
  });

  it("finds the plan's price by its lookup key rather than making another", async () => {
    await subscribe("checkout-1");
    await subscribe("checkout-2");
    expect(stripe.callsTo("POST", "/v1/prices")).toHaveLength(1);
    expect(stripe.callsTo("GET", "/v1/prices")).toHaveLength(2);
    const prices = [...stripe.subscriptions.values()].map(
      (s) => (s.items as { data: [{ price: { id: string } }] }).data[0].price.id,
    );
    expect(new Set(prices).size).toBe(1);
  });

  it("uses the plan's own Stripe price when it has one", async () => {
    const own = stripe.handle(
      "POST",
      "/v1/prices",
      parseStripeForm("unit_amount=2500&currency=usd&recurring[interval]=month"),
      null,
    );
    const priceId = (own.body as { id: string }).id;
    await subscribe("checkout-1", { plan: { ...monthly, providerPriceId: priceId } });
    expect(stripe.callsTo("GET", "/v1/prices")).toHaveLength(0);
    expect(stripe.callsTo("POST", "/v1/subscriptions")[0]!.params.items).toEqual([{ price: priceId }]);
  });

  it("makes one subscription when the same checkout is started twice", async () => {
    const ref = await customer();
    const input = { customerRef: ref, plan: monthly, coupon: null, idempotencyKey: "checkout-1", metadata: {} };
    const first = await payments.startSubscription(input);
    const again = await payments.startSubscription(input);
    expect(again).toEqual(first);
    expect(stripe.subscriptions.size).toBe(1);
    expect(stripe.callsTo("POST", "/v1/subscriptions").map((c) => c.idempotencyKey)).toEqual([
      "checkout-1",
      "checkout-1",
    ]);
  });

  it("retries a request Stripe failed under the same idempotency key, and makes one subscription", async () => {
    const input = {
      customerRef: await customer(),
      plan: monthly,
      coupon: null,
      idempotencyKey: "checkout-1",
      metadata: {},
    };
    stripe.failNext("server", { path: "/v1/subscriptions" });
    const started = await payments.startSubscription(input);
    const attempts = stripe.callsTo("POST", "/v1/subscriptions");
    expect(attempts.map((c) => c.idempotencyKey)).toEqual(["checkout-1", "checkout-1"]);
    expect([...stripe.subscriptions.keys()]).toEqual([started.subscriptionRef]);
  });

  it("makes a coupon Stripe lacks under our coupon's id once, then uses it", async () => {
    const first = await subscribe("checkout-1", { coupon: tenOff });
    expect(stripe.callsTo("GET", "/v1/coupons/WELCOME10")).toHaveLength(1);
    expect(stripe.callsTo("POST", "/v1/coupons")).toEqual([
      expect.objectContaining({
        params: { id: "WELCOME10", name: "Welcome", duration: "once", amount_off: "1000", currency: "usd" },
        idempotencyKey: "checkout-1-coupon",
      }),
    ]);
    expect(stripe.callsTo("POST", "/v1/subscriptions")[0]!.params.discounts).toEqual([{ coupon: "WELCOME10" }]);
    expect(first.amountDueCents).toBe(1500);

    await subscribe("checkout-2", { coupon: tenOff });
    expect(stripe.callsTo("GET", "/v1/coupons/WELCOME10")).toHaveLength(2);
    expect(stripe.callsTo("POST", "/v1/coupons")).toHaveLength(1);
    expect(stripe.callsTo("POST", "/v1/subscriptions")[1]!.params.discounts).toEqual([{ coupon: "WELCOME10" }]);
  });

  it("makes a repeating percentage coupon with its months", async () => {
    const half: ProviderCoupon = {
      ...tenOff,
      id: "HALF3",
      amountOff: null,
      currency: null,
      percentOff: 50,
      duration: "repeating",
      durationInMonths: 3,
    };
    const started = await subscribe("checkout-1", { coupon: half });
    expect(stripe.callsTo("POST", "/v1/coupons")[0]!.params).toEqual({
      id: "HALF3",
      name: "Welcome",
      duration: "repeating",
      duration_in_months: "3",
      percent_off: "50",
    });
    expect(started.amountDueCents).toBe(1250);
  });

  it("uses the coupon's Stripe id when it has one, without looking it up", async () => {
    stripe.handle(
      "POST",
      "/v1/coupons",
      parseStripeForm("id=stripe-made&duration=once&amount_off=500&currency=usd"),
      null,
    );
    await subscribe("checkout-1", { coupon: { ...tenOff, providerRef: "stripe-made" } });
    expect(stripe.calls.filter((c) => c.path.startsWith("/v1/coupons"))).toHaveLength(0);
    expect(stripe.callsTo("POST", "/v1/subscriptions")[0]!.params.discounts).toEqual([{ coupon: "stripe-made" }]);
  });

  it("starts a subscription with nothing due as active, with no secret to confirm", async () => {
    const free: ProviderCoupon = { ...tenOff, id: "FREE", amountOff: null, currency: null, percentOff: 100 };
    const started = await subscribe("checkout-1", { coupon: free });
    expect(started).toMatchObject({ status: "ACTIVE", clientSecret: null, amountDueCents: 0 });
  });

  it("refuses a coupon Stripe no longer accepts with words for the member", async () => {
    await subscribe("checkout-1", { coupon: tenOff });
    stripe.coupons.get("WELCOME10")!.valid = false;
    await expect(subscribe("checkout-2", { coupon: tenOff })).rejects.toEqual(
      new PaymentDeclined("This coupon is no longer valid"),
    );
  });

  it("starts a one-off payment intent and reads its outcome back", async () => {
    const ref = await customer();
    const started = await donate({
      customerRef: ref,
      email: "ada@example.org",
      currency: "USD",
      idempotencyKey: "checkout-9",
      metadata: { checkout_id: "checkout-9" },
    });
    expect(stripe.callsTo("POST", "/v1/payment_intents")).toEqual([
      expect.objectContaining({
        params: {
          amount: "1500",
          currency: "usd",
          customer: ref,
          receipt_email: "ada@example.org",
          description: "Donation",
          automatic_payment_methods: { enabled: "true" },
          metadata: { checkout_id: "checkout-9" },
        },
        idempotencyKey: "checkout-9",
      }),
    ]);
    expect(started).toEqual({
      intentRef: expect.stringMatching(/^pi_/),
      clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/),
      status: "requires_payment_method",
    });

    stripe.confirm(started.clientSecret, TEST_CARDS.declined);
    expect(await payments.readIntent(started.intentRef)).toEqual({
      status: "requires_payment_method",
      amountCents: 1500,
      currency: "usd",
      failureMessage: "Your card was declined.",
      metadata: { checkout_id: "checkout-9" },
    });
    expect(stripe.calls.at(-1)).toMatchObject({ method: "GET", path: `/v1/payment_intents/${started.intentRef}` });

    stripe.confirm(started.clientSecret, TEST_CARDS.visa);
    expect(await payments.readIntent(started.intentRef)).toMatchObject({ status: "succeeded", failureMessage: null });
  });

  it("refunds part of a paid intent under the idempotency key, once however often it is asked", async () => {
    const started = await donate({ idempotencyKey: "checkout-refund", metadata: { checkout_id: "checkout-refund" } });
    stripe.confirm(started.clientSecret, TEST_CARDS.visa);
    const ask = () =>
      payments.refundPayment({
        intentRef: started.intentRef,
        amountCents: 950,
        idempotencyKey: "mailing-refund:letter-1",
        metadata: { mailing: "letter-1" },
      });
    const first = await ask();
    expect(first).toEqual({ refundRef: expect.stringMatching(/^re_/), amountCents: 950 });
    expect(await ask()).toEqual(first);
    expect(stripe.callsTo("POST", "/v1/refunds")).toEqual([
      expect.objectContaining({
        params: { payment_intent: started.intentRef, amount: "950", metadata: { mailing: "letter-1" } },
        idempotencyKey: "mailing-refund:letter-1",
      }),
      expect.objectContaining({ idempotencyKey: "mailing-refund:letter-1" }),
    ]);
    // More than is left is Stripe's refusal, reported as our fault rather than the member's.
    await expect(
      payments.refundPayment({ intentRef: started.intentRef, amountCents: 600, idempotencyKey: "other", metadata: {} }),
    ).rejects.toThrow(/Stripe refused the request: Refund amount/);
  });

  it("starts a visitor's payment without a customer", async () => {
    await donate();
    expect(stripe.calls[0]!.params.customer).toBeUndefined();
  });

  it("cancels at the period's end, resumes, and cancels at once", async () => {
    const { subscriptionRef } = await subscribe("checkout-1");
    const path = `/v1/subscriptions/${subscriptionRef}`;

    const atEnd = await payments.cancelSubscription(subscriptionRef, { atPeriodEnd: true });
    expect(stripe.calls.at(-1)).toMatchObject({ method: "POST", path, params: { cancel_at_period_end: "true" } });
    expect(atEnd).toMatchObject({ ref: subscriptionRef, cancelAtPeriodEnd: true, planId: "member_monthly" });

    const resumed = await payments.resumeSubscription(subscriptionRef);
    expect(stripe.calls.at(-1)).toMatchObject({ method: "POST", path, params: { cancel_at_period_end: "false" } });
    expect(resumed.cancelAtPeriodEnd).toBe(false);

    const now = await payments.cancelSubscription(subscriptionRef, { atPeriodEnd: false });
    expect(stripe.calls.at(-1)).toMatchObject({ method: "DELETE", path });
    expect(now).toMatchObject({ status: "CANCELED", endedAt: expect.any(Date), canceledAt: expect.any(Date) });
  });

  it("moves a subscription to another plan's price on its existing item, prorated", async () => {
    const { subscriptionRef } = await subscribe("checkout-1");
    const itemId = (stripe.subscriptions.get(subscriptionRef)!.items as { data: [{ id: string }] }).data[0].id;
    const changed = await payments.changePlan(subscriptionRef, yearly, "change-1");
    const update = stripe.callsTo("POST", `/v1/subscriptions/${subscriptionRef}`)[0]!;
    const yearlyPrice = [...stripe.prices.values()].find(
      (p) => p.lookup_key === "memberhall_member_yearly_25000_usd_year",
    )!;
    expect(update).toMatchObject({
      params: {
        items: [{ id: itemId, price: yearlyPrice.id }],
        proration_behavior: "create_prorations",
        metadata: { plan_id: "member_yearly" },
      },
      idempotencyKey: "change-1",
    });
    expect(changed).toMatchObject({ ref: subscriptionRef, planId: "member_yearly" });
  });

  it("reads the card a subscription saved, and makes a newly saved card the one later payments use", async () => {
    const started = await subscribe("checkout-1");
    const customerRef = stripe.subscriptions.get(started.subscriptionRef)!.customer as string;
    expect(await payments.readCard(customerRef)).toBeNull();

    stripe.confirm(started.clientSecret!, TEST_CARDS.visa);
    expect(await payments.readCard(customerRef)).toEqual({ brand: "visa", last4: "4242", expMonth: 12, expYear: 2034 });

    const update = await payments.startCardUpdate(customerRef, "card-1", { checkout_id: "card-1" });
    expect(stripe.calls.at(-1)).toMatchObject({
      method: "POST",
      path: "/v1/setup_intents",
      params: { customer: customerRef, usage: "off_session", metadata: { checkout_id: "card-1" } },
      idempotencyKey: "card-1",
    });
    expect(update).toMatchObject({ intentRef: expect.stringMatching(/^seti_/), status: "requires_payment_method" });

    stripe.confirm(update.clientSecret, TEST_CARDS.declined);
    expect(await payments.readIntent(update.intentRef)).toMatchObject({
      status: "requires_payment_method",
      amountCents: 0,
      failureMessage: "Your card was declined.",
    });
    expect(stripe.calls.at(-1)).toMatchObject({ method: "GET", path: `/v1/setup_intents/${update.intentRef}` });
    const confirmed = stripe.confirm(update.clientSecret, TEST_CARDS.mastercard);
    expect(await payments.readIntent(update.intentRef)).toMatchObject({ status: "succeeded", failureMessage: null });
    const card = await payments.setDefaultCard(customerRef, confirmed.payment_method as string);
    expect(card).toEqual({ brand: "mastercard", last4: "4444", expMonth: 12, expYear: 2034 });
    expect(stripe.callsTo("POST", `/v1/customers/${customerRef}`)[0]!.params).toEqual({
      invoice_settings: { default_payment_method: confirmed.payment_method },
    });
    // The subscription's own card comes before the customer's: it is replaced too.
    expect(stripe.subscriptions.get(started.subscriptionRef)!.default_payment_method).toBe(confirmed.payment_method);
    expect(await payments.readCard(customerRef)).toMatchObject({ brand: "mastercard", last4: "4444" });
  });

  it("turns a card decline into PaymentDeclined with Stripe's message", async () => {
    stripe.failNext("decline");
    const attempt = donate();
    await expect(attempt).rejects.toEqual(new PaymentDeclined("Your card was declined."));
  });

  it.each([
    ["a 500", "server", 3],
    ["a dropped connection", "network", 3],
    // Stripe's SDK does not retry a 429 unless Stripe asks it to.
    ["rate limiting", "rate_limit", 1],
  ] as const)(
    "turns %s into PaymentsUnavailable once the SDK's retries are spent",
    async (_name, failure, attempts) => {
      stripe.failNext(failure, { times: attempts });
      const attempt = customer();
      await expect(attempt).rejects.toBeInstanceOf(PaymentsUnavailable);
      expect(stripe.calls.map((c) => c.idempotencyKey)).toEqual(Array(attempts).fill("customer-ada@example.org"));
      expect(stripe.customers.size).toBe(0);
    },
  );

  it("reports a request Stripe finds invalid as our fault, not the member's", async () => {
    const attempt = donate({ amountCents: 10 });
    const error = await attempt.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(PaymentDeclined);
    expect(error).not.toBeInstanceOf(PaymentsUnavailable);
    expect((error as Error).message).toBe("Stripe refused the request: Amount must be at least $0.50 usd");
  });

  it("reports a wrong secret key as our fault, not an outage", async () => {
    const wrong = stripePayments({ ...settings, stripeSecretKey: "sk_test_not_ours" });
    const attempt = customer(undefined, wrong);
    const error = await attempt.catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(PaymentsUnavailable);
    expect((error as Error).message).toBe("Stripe refused the request: Invalid API Key provided: sk_test_****");
  });

  it("reaches msw with a client made before msw started", async () => {
    await customer(undefined, madeBeforeMsw);
    expect(stripe.customers.size).toBe(1);
  });

  it("sends its requests to the address STRIPE_API_BASE names", async () => {
    const local = "http://localhost:12111";
    mockServer.use(...stripeHandlers(local));
    const elsewhere = stripePayments({ ...settings, stripeApiBase: local });
    await customer(undefined, elsewhere);
    expect(stripe.calls.map((c) => `${c.origin} ${c.method} ${c.path}`)).toEqual([`${local} POST /v1/customers`]);
  });
});

describe("Stripe webhooks", () => {
  const deliver = (event: unknown, options: { secret?: string; timestamp?: number } = {}) => {
    const payload = JSON.stringify(event, null, 2);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? STRIPE_WEBHOOK_SECRET,
      timestamp: options.timestamp,
    });
    return payments.readWebhook(payload, signature);
  };

  /** What every event of ours says of the Stripe event it reads. */
  const headOf = (event: { id: string; type: string; created: number }) => ({
    id: event.id,
    provider: "stripe",
    providerType: event.type,
    occurredAt: new Date(event.created * 1000),
  });

  async function paidSubscription() {
    const started = await subscribe("checkout-1");
    stripe.confirm(started.clientSecret!, TEST_CARDS.visa);
    const subscription = stripe.subscriptions.get(started.subscriptionRef)!;
    const invoice = stripe.invoices.get(subscription.latest_invoice as string)!;
    return { subscription, invoice };
  }

  it("maps subscription events with our plan, period and checkout", async () => {
    const { subscription } = await paidSubscription();
    const event = stripe.event("customer.subscription.updated", subscription, { status: "incomplete" });
    const item = (subscription.items as { data: [{ current_period_start: number; current_period_end: number }] })
      .data[0];
    expect(deliver(event)).toEqual({
      ...headOf(event),
      type: "subscription.updated",
      subscription: {
        ref: subscription.id,
        customerRef: subscription.customer,
        status: "ACTIVE",
        currentPeriodStart: new Date(item.current_period_start * 1000),
        currentPeriodEnd: new Date(item.current_period_end * 1000),
        cancelAtPeriodEnd: false,
        canceledAt: null,
        endedAt: null,
        planId: "member_monthly",
        metadata: { checkout_id: "checkout-1", plan_id: "member_monthly" },
      },
    });
    expect(deliver(stripe.event("customer.subscription.created", subscription)).type).toBe("subscription.created");
    const ended = { ...subscription, status: "canceled", canceled_at: 1_800_000_000, ended_at: 1_800_000_000 };
    expect(deliver(stripe.event("customer.subscription.deleted", ended))).toMatchObject({
      type: "subscription.deleted",
      subscription: { status: "CANCELED", endedAt: new Date(1_800_000_000_000) },
    });
  });

  it.each([
    ["past_due", "PAST_DUE"],
    ["unpaid", "UNPAID"],
    ["paused", "PAUSED"],
    ["trialing", "TRIALING"],
    ["incomplete_expired", "INCOMPLETE_EXPIRED"],
  ])("reads Stripe's status %s as %s", async (status, ours) => {
    const { subscription } = await paidSubscription();
    const event = deliver(stripe.event("customer.subscription.updated", { ...subscription, status }));
    expect(event).toMatchObject({ subscription: { status: ours } });
  });

  it("maps a paid invoice to its subscription, paid period and checkout", async () => {
    const { subscription, invoice } = await paidSubscription();
    const line = (invoice.lines as { data: [{ period: { start: number; end: number } }] }).data[0];
    expect(deliver(stripe.event("invoice.paid", invoice))).toMatchObject({
      type: "invoice.paid",
      invoice: {
        ref: invoice.id,
        subscriptionRef: subscription.id,
        customerRef: subscription.customer,
        amountCents: 2500,
        subtotalCents: 2500,
        currency: "usd",
        periodStart: new Date(line.period.start * 1000),
        periodEnd: new Date(line.period.end * 1000),
        billingReason: "subscription_create",
        failureMessage: null,
        card: null,
        metadata: { checkout_id: "checkout-1", plan_id: "member_monthly" },
      },
    });
  });

  it("maps a failed invoice with the amount still due, and leaves invoice.payment_succeeded to invoice.paid", async () => {
    const started = await subscribe("checkout-1");
    const invoiceId = stripe.subscriptions.get(started.subscriptionRef)!.latest_invoice as string;
    const invoice = { ...stripe.invoices.get(invoiceId), attempted: true, billing_reason: "subscription_cycle" };
    expect(deliver(stripe.event("invoice.payment_failed", invoice))).toMatchObject({
      type: "invoice.payment_failed",
      invoice: { amountCents: 2500, billingReason: "subscription_cycle" },
    });
    expect(deliver(stripe.event("invoice.payment_succeeded", invoice)).type).toBe("other");
  });

  it("maps our payment intents' outcomes, and leaves a subscription invoice's intent to the invoice events", async () => {
    const payment = await donate();
    const declined = stripe.confirm(payment.clientSecret, TEST_CARDS.declined);
    expect(deliver(stripe.event("payment_intent.payment_failed", declined))).toMatchObject({
      type: "payment.failed",
      payment: {
        ref: payment.intentRef,
        failureMessage: "Your card was declined.",
        metadata: { checkout_id: "checkout-7" },
      },
    });
    const paid = stripe.confirm(payment.clientSecret, TEST_CARDS.visa);
    expect(deliver(stripe.event("payment_intent.succeeded", { ...paid, last_payment_error: null }))).toEqual(
      expect.objectContaining({
        type: "payment.succeeded",
        payment: {
          ref: payment.intentRef,
          customerRef: null,
          amountCents: 1500,
          currency: "usd",
          failureMessage: null,
          card: null,
          metadata: { checkout_id: "checkout-7" },
        },
      }),
    );

    const subscription = await subscribe("checkout-8");
    const invoiceIntent = stripe.confirm(subscription.clientSecret!, TEST_CARDS.visa);
    expect(deliver(stripe.event("payment_intent.succeeded", invoiceIntent)).type).toBe("other");
  });

  it("maps a refund to the payment intent it belongs to", async () => {
    const payment = await donate();
    stripe.confirm(payment.clientSecret, TEST_CARDS.visa);
    const charge = stripe.refund(payment.intentRef, 500);
    expect(deliver(stripe.event("charge.refunded", charge))).toMatchObject({
      type: "charge.refunded",
      refund: { paymentRef: payment.intentRef, amountRefundedCents: 500, currency: "usd" },
    });
  });

  it("maps a saved card to card.updated naming the payment method", async () => {
    const customerRef = await customer();
    const update = await payments.startCardUpdate(customerRef, "card-1", { checkout_id: "card-1" });
    const intent = stripe.confirm(update.clientSecret, TEST_CARDS.mastercard);
    expect(deliver(stripe.event("setup_intent.succeeded", intent))).toMatchObject({
      type: "card.updated",
      card: { customerRef, paymentMethodRef: intent.payment_method, card: null, metadata: { checkout_id: "card-1" } },
    });
  });

  it("fails a signed event it cannot read, so that Stripe delivers it again", async () => {
    const { subscription } = await paidSubscription();
    const event = stripe.event("customer.subscription.updated", { ...subscription, status: "on_hold" });
    expect(() => deliver(event)).toThrow(/Stripe sent a customer.subscription.updated event we cannot read: status/);
  });

  it("reads a type it does not act on as other", () => {
    const event = stripe.event("customer.created", { id: "cus_1", object: "customer" });
    expect(deliver(event)).toEqual({ ...headOf(event), type: "other" });
  });

  it("refuses a delivery signed with another secret, unsigned, tampered with, or signed over 300 seconds ago", () => {
    const event = stripe.event("customer.created", { id: "cus_1", object: "customer" });
    const payload = JSON.stringify(event);
    expect(() => deliver(event, { secret: "whsec_someone_else" })).toThrow(InvalidWebhookSignature);
    expect(() => payments.readWebhook(payload, null)).toThrow(InvalidWebhookSignature);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET });
    expect(() => payments.readWebhook(payload.replace("cus_1", "cus_2"), signature)).toThrow(InvalidWebhookSignature);
    const now = Math.floor(Date.now() / 1000);
    expect(() => deliver(event, { timestamp: now - 301 })).toThrow(InvalidWebhookSignature);
    expect(deliver(event, { timestamp: now - 290 }).type).toBe("other");
  });

  it("refuses a delivery signed more than 300 seconds ahead of this server's clock, and takes one within", () => {
    const event = stripe.event("customer.created", { id: "cus_1", object: "customer" });
    const now = Math.floor(Date.now() / 1000);
    expect(() => deliver(event, { timestamp: now + 3_600 })).toThrow(/ahead of this server's clock/);
    expect(() => deliver(event, { timestamp: now + 301 })).toThrow(InvalidWebhookSignature);
    expect(deliver(event, { timestamp: now + 290 }).type).toBe("other");
  });
});
