import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppLoadContext } from "@remix-run/node";
import type { AppServices } from "~/context";
import { billingCustomers, mailOutbox, subscriptions, users, webhookEvents } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { action as webhookAction } from "~/routes/api.webhooks.stripe";
import { action as profileAction } from "~/routes/profile.delete";
import { startCheckout } from "~/services/billing/checkout.server";
import { eraseMember } from "~/services/member-data/erasure.server";
import { loadViewer, siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, type TestDatabase } from "../helpers/db";
import { answer, formOf } from "../helpers/requests";
import { createSession, createUser, TEST_PASSWORD } from "../helpers/users";
import { STRIPE_PUBLISHABLE_KEY, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, TEST_CARDS, stripe } from "../mocks/stripe";

const signer = new Stripe(STRIPE_SECRET_KEY);

/**
 * "Delete my account" with Stripe as the provider, against the msw fake: the subscription is
 * cancelled and the customer deleted at Stripe once, however often the form is sent.
 */
describe("deleting an account with Stripe", () => {
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

  const deliver = async (event: unknown) => {
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET });
    const request = new Request("http://localhost/api/webhooks/stripe", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": header },
      body: payload,
    });
    expect((await webhookAction({ request, params: {}, context })).status).toBe(200);
  };

  /** A member with a paid monthly membership at Stripe. */
  async function subscribed() {
    const user = await createUser(database.db, { name: "Wren Halloway" });
    const viewer = (await loadViewer(database.db, (await createSession(database.db, user.id)).id))!;
    const attempt = randomUUID();
    const checkout = await startCheckout(
      services,
      { viewer },
      { attempt, planId: "monthly", donationCents: null, couponSlug: null },
    );
    stripe.confirm(checkout.clientSecret!, TEST_CARDS.visa);
    const subscription = stripe.subscriptions.get(checkout.providerRef!)!;
    await deliver(stripe.event("customer.subscription.created", subscription));
    await deliver(stripe.event("invoice.paid", stripe.invoices.get(subscription.latest_invoice as string)!));
    return { user, subscriptionRef: checkout.providerRef!, customerRef: subscription.customer as string };
  }

  const deleteRequest = async (userId: string) =>
    new Request("http://localhost/profile/delete", {
      method: "POST",
      headers: {
        cookie: await siteCookies(services.config).session.serialize((await createSession(database.db, userId)).id),
      },
      body: formOf({ intent: "delete-account", password: TEST_PASSWORD }),
    });

  it("cancels the subscription and deletes the customer at Stripe once, when the form is sent twice at once", async () => {
    const { user, subscriptionRef, customerRef } = await subscribed();
    const [first, second] = [await deleteRequest(user.id), await deleteRequest(user.id)];
    const answers = await Promise.all([
      answer(profileAction({ request: first, params: {}, context })),
      answer(profileAction({ request: second, params: {}, context })),
    ]);
    expect(answers.map((a) => a.status)).toEqual([302, 302]);
    expect(stripe.callsTo("DELETE", `/v1/subscriptions/${subscriptionRef}`)).toHaveLength(1);
    expect(stripe.callsTo("DELETE", `/v1/customers/${customerRef}`)).toHaveLength(1);
    expect(stripe.customers.has(customerRef)).toBe(false);
    expect(stripe.subscriptions.get(subscriptionRef)!.status).toBe("canceled");
    const [sub] = await database.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    expect(sub!.status).toBe("CANCELED");
    expect(await database.db.select().from(billingCustomers).where(eq(billingCustomers.userId, user.id))).toEqual([]);
    // One mail tells the member, not one per request.
    const told = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
    expect(told.map((mail) => mail.subject).filter((subject) => subject === "Your account is deleted")).toHaveLength(1);
  });

  it("sends nothing to Stripe again when the deletion is asked for once more", async () => {
    const { user } = await subscribed();
    await answer(profileAction({ request: await deleteRequest(user.id), params: {}, context }));
    const calls = stripe.calls.length;
    await answer(profileAction({ request: await deleteRequest(user.id), params: {}, context }));
    expect(stripe.calls.length).toBe(calls);
  });

  it("keeps Stripe's events about an erased member by their ids only", async () => {
    const { user } = await subscribed();
    await answer(profileAction({ request: await deleteRequest(user.id), params: {}, context }));
    await eraseMember(services, user.id, { actorUserId: null, agentUserId: null }, "grace-ended");
    const [erased] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(erased!.erasedAt).not.toBeNull();
    const events = await database.db.select().from(webhookEvents);
    const about = events.filter((e) => JSON.stringify(e.payload).includes(user.email));
    expect(about).toEqual([]);
    expect(events.filter((e) => JSON.stringify(e.payload) === '{"erased":true}').length).toBeGreaterThan(0);
  });
});
