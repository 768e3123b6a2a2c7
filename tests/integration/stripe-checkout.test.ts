import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { AppLoadContext } from "@remix-run/node";
import type { AppServices } from "~/context";
import { checkouts, couponRedemptions, payments, subscriptions, webhookEvents } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { action as webhookAction } from "~/routes/api.webhooks.stripe";
import { startCheckout } from "~/services/billing/checkout.server";
import { loadViewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { createSession, createUser } from "../helpers/users";
import { STRIPE_PUBLISHABLE_KEY, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, TEST_CARDS, stripe } from "../mocks/stripe";

/**
 * The whole flow with Stripe as the provider, against the msw fake that speaks Stripe's wire
 * format: our checkout starts the subscription, the browser confirms it (Stripe.js's part,
 * played by the fake), and Stripe's signed webhooks settle it through /api/webhooks/stripe.
 */
const signer = new Stripe(STRIPE_SECRET_KEY);

describe("checkout with Stripe", () => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let services: AppServices;

  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database, {
      PAYMENTS: "stripe",
      STRIPE_SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY,
      STRIPE_WEBHOOK_SECRET,
    });
    services = context.app!;
  });
  beforeEach(() => stripe.reset());
  afterAll(async () => {
    await database?.dispose();
  });

  const deliver = async (event: unknown, signature?: string) => {
    const payload = typeof event === "string" ? event : JSON.stringify(event);
    const header = signature ?? signer.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET });
    const request = new Request("http://localhost/api/webhooks/stripe", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": header },
      body: payload,
    });
    const response = await webhookAction({ request, params: {}, context });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const subscribe = async (couponSlug: string | null = null) => {
    const user = await createUser(database.db);
    const viewer = (await loadViewer(database.db, (await createSession(database.db, user.id)).id))!;
    const checkout = await startCheckout(
      services,
      { viewer },
      { attempt: randomUUID(), planId: "monthly", donationCents: null, couponSlug },
    );
    return { user, checkout };
  };

  /** What Stripe sends once the first invoice is paid: the subscription's update and the invoice. */
  const paidEvents = (subscriptionRef: string) => {
    const subscription = stripe.subscriptions.get(subscriptionRef)!;
    const invoice = stripe.invoices.get(subscription.latest_invoice as string)!;
    return [stripe.event("customer.subscription.updated", subscription), stripe.event("invoice.paid", invoice)];
  };

  it("starts the subscription at Stripe with our idempotency key, and settles it from the signed webhooks", async () => {
    const { user, checkout } = await subscribe("members-friends");
    const [call] = stripe.callsTo("POST", "/v1/subscriptions");
    expect(call!.idempotencyKey).toBe(checkout.id);
    expect(call!.params).toMatchObject({
      payment_behavior: "default_incomplete",
      discounts: [{ coupon: "MEMBER20" }],
      metadata: { checkout_id: checkout.id, plan_id: "monthly" },
    });
    expect(checkout).toMatchObject({ status: "open", amountCents: 1600, provider: "stripe" });
    expect(checkout.clientSecret).toBeTruthy();

    stripe.confirm(checkout.clientSecret!, TEST_CARDS.visa);
    const created = stripe.event("customer.subscription.created", stripe.subscriptions.get(checkout.providerRef!));
    expect((await deliver(created)).status).toBe(200);
    for (const event of paidEvents(checkout.providerRef!)) expect((await deliver(event)).status).toBe(200);

    const [sub] = await database.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    expect(sub).toMatchObject({ status: "ACTIVE", provider: "stripe", providerSubscriptionId: checkout.providerRef });
    const paid = await database.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ kind: "subscription", status: "succeeded", amountCents: 1600 });
    const [settled] = await database.db.select().from(checkouts).where(eq(checkouts.id, checkout.id));
    expect(settled!.status).toBe("succeeded");
    expect(
      await database.db.select().from(couponRedemptions).where(eq(couponRedemptions.checkoutId, checkout.id)),
    ).toHaveLength(1);
  });

  it("answers a replayed event 200 and changes nothing", async () => {
    const { user, checkout } = await subscribe();
    stripe.confirm(checkout.clientSecret!, TEST_CARDS.visa);
    const events = paidEvents(checkout.providerRef!);
    for (let n = 0; n < 3; n++) {
      for (const event of events) expect((await deliver(event)).status).toBe(200);
    }
    expect((await deliver(events[1])).body).toEqual({ received: true, duplicate: true });
    expect(await database.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);
  });

  it("refuses a bad, missing or stale signature with 400 and stores nothing", async () => {
    const { checkout } = await subscribe();
    const [, invoicePaid] = paidEvents(checkout.providerRef!);
    const payload = JSON.stringify(invoicePaid);
    const stale = signer.webhooks.generateTestHeaderString({
      payload,
      secret: STRIPE_WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    const forged = signer.webhooks.generateTestHeaderString({ payload, secret: "whsec_someone_else" });
    for (const signature of [stale, forged, "t=1,v1=abc"]) {
      const { status, body } = await deliver(invoicePaid, signature);
      expect(status).toBe(400);
      expect(body.error).toBe("The Stripe-Signature header does not match this event");
    }
    const stored = await database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.eventId, invoicePaid!.id as string));
    expect(stored).toHaveLength(0);
  });

  it("keeps a signed event holding a NUL character unapplied, its NULs replaced, and answers 200", async () => {
    const event = stripe.event("customer.created\u0000", { id: "cus_nul", object: "customer", name: "Ann\u0000" });
    const { status, body } = await deliver(event);
    expect(status).toBe(200);
    expect(body).toEqual({ received: true, duplicate: false, unreadable: true });
    const [stored] = await database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.eventId, event.id as string));
    expect(stored).toMatchObject({ type: "customer.created\uFFFD", processedAt: null });
    expect(stored!.error).toBe("A NUL character (U+0000) cannot be stored: leave it out of data.object.name, type");
    expect((stored!.payload as { data: { object: { name: string } } }).data.object.name).toBe("Ann\uFFFD");
  });

  it.each([
    ["an event it reads", (id: string) => ({ id, type: "customer.created\ud83d", created: 1, data: { object: {} } })],
    [
      "an event it cannot read",
      (id: string) => ({ id, type: "invoice.paid", created: 1, data: { object: { "\ude00": 1 } } }),
    ],
  ])("keeps %s whose text holds half a character, with U+FFFD in its place, and answers 200", async (_what, make) => {
    const event = make(`evt_half_${randomUUID()}`);
    expect((await deliver(event)).status).toBe(200);
    const [stored] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, event.id));
    expect(JSON.stringify(stored!.payload)).toContain("\ufffd");
    expect(JSON.stringify(stored!.payload)).not.toMatch(/\\ud[89a-f]/i);
  });

  it("stores an event of a type it does not use, and answers 200", async () => {
    const event = stripe.event("customer.created", { id: "cus_x", object: "customer" });
    expect((await deliver(event)).status).toBe(200);
    const [stored] = await database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.eventId, event.id as string));
    expect(stored).toMatchObject({ provider: "stripe", type: "customer.created" });
    expect(stored!.processedAt).not.toBeNull();
  });

  describe("a signed delivery it cannot read", () => {
    const unreadableRows = () =>
      database.db
        .select()
        .from(webhookEvents)
        .then((rows) => rows.filter((row) => row.error !== null));

    it.each([
      ["an event without its id", { type: "invoice.paid", created: 1, data: { object: {} } }, "invoice.paid"],
      [
        "an invoice.paid whose invoice has no id",
        { id: "evt_unreadable_1", type: "invoice.paid", created: 1, data: { object: { object: "invoice" } } },
        "invoice.paid",
      ],
      ["a body that is not JSON", "{not json", "unreadable"],
      ["a body that is JSON null", "null", "unreadable"],
    ])("keeps %s for admins, unapplied, and answers 200 once and for its resends", async (_what, event, type) => {
      const before = (await unreadableRows()).length;
      const first = await deliver(event);
      expect(first).toEqual({ status: 200, body: { received: true, duplicate: false, unreadable: true } });
      const again = await deliver(event);
      expect(again).toEqual({ status: 200, body: { received: true, duplicate: true, unreadable: true } });
      const rows = await unreadableRows();
      expect(rows).toHaveLength(before + 1);
      const kept = rows.at(-1)!;
      expect(kept).toMatchObject({ provider: "stripe", type, processedAt: null });
      expect(kept.error).toMatch(/cannot read|not JSON/);
    });

    it("still refuses an unreadable body with a bad signature, keeping nothing", async () => {
      const before = (await unreadableRows()).length;
      const { status } = await deliver("{not json", "t=1,v1=abc");
      expect(status).toBe(400);
      expect(await unreadableRows()).toHaveLength(before);
    });
  });

  it("fails (so Stripe retries) when applying fails, stores nothing, and applies the retry", async () => {
    const { user, checkout } = await subscribe();
    stripe.confirm(checkout.clientSecret!, TEST_CARDS.visa);
    const [, invoicePaid] = paidEvents(checkout.providerRef!);
    const transaction = vi.spyOn(services.db, "transaction").mockRejectedValueOnce(new Error("the database went away"));
    await expect(deliver(invoicePaid)).rejects.toThrow("the database went away");
    transaction.mockRestore();
    expect(await database.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(0);
    expect((await deliver(invoicePaid)).status).toBe(200);
    expect(await database.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);
  });

  it("says the payments provider is down, charges nothing and leaves no half-made subscription", async () => {
    stripe.failNext("server", { times: 5 });
    const user = await createUser(database.db);
    const viewer = (await loadViewer(database.db, (await createSession(database.db, user.id)).id))!;
    const attempt = randomUUID();
    await expect(
      startCheckout(services, { viewer }, { attempt, planId: "monthly", donationCents: null, couponSlug: null }),
    ).rejects.toMatchObject({ status: 503, message: expect.stringContaining("Nothing was charged") });
    const [failed] = await database.db.select().from(checkouts).where(eq(checkouts.id, attempt));
    expect(failed?.status ?? "failed").toBe("failed");
    expect(await database.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))).toHaveLength(0);
  });
});
