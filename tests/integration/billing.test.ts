import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import {
  checkouts,
  couponRedemptions,
  coupons,
  mailOutbox,
  payments,
  sandboxObjects,
  subscriptions,
  users,
  webhookEvents,
} from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { type DomainError } from "~/domain/errors";
import { SANDBOX_CARDS } from "~/providers/payments/sandbox.server";
import { claimPayments } from "~/services/billing/checkout-outcome.server";
import { startCheckout, type CheckoutInput } from "~/services/billing/checkout.server";
import { applyPaymentEvent } from "~/services/billing/events.server";
import { sendReceipt } from "~/services/billing/notices.server";
import { authenticateSandbox, payWithSandboxCard, returnPage } from "~/services/billing/pages.server";
import { deliverSandboxEvents, renewSandboxSubscriptions } from "~/services/billing/sandbox.server";
import { loadViewer } from "~/services/session.server";
import { verifyEmail } from "~/services/accounts.server";
import { issueToken } from "~/services/tokens.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession, createUser } from "../helpers/users";

const card = (number: string) => ({ cardNumber: number, expiry: "12/39", cvc: "123" });
const DAY = 86_400_000;

describe.each(drivers)("payments on the sandbox (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    services = testContext(database).app!;
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const member = async (overrides: Parameters<typeof createUser>[1] = {}) => {
    const user = await createUser(database.db, overrides);
    const viewer = (await loadViewer(database.db, (await createSession(database.db, user.id)).id))!;
    return { user, viewer };
  };
  const input = (overrides: Partial<CheckoutInput> = {}): CheckoutInput => ({
    attempt: randomUUID(),
    planId: "monthly",
    donationCents: null,
    couponSlug: null,
    ...overrides,
  });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error("expected a refusal");
      },
      (error: DomainError) => error,
    );
  const subscriptionOf = async (userId: string) =>
    (await database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)))[0];
  const paymentsOf = (userId: string) => database.db.select().from(payments).where(eq(payments.userId, userId));

  it("subscribes a member with 4242: ACTIVE, one payment, a receipt, the NoL creator granted", async () => {
    const { user, viewer } = await member();
    expect(viewer.member.nolCreator).toBe(false);
    const checkout = await startCheckout(services, { viewer }, input());
    expect(checkout).toMatchObject({ status: "open", amountCents: 2000, listAmountCents: 2000, kind: "subscription" });
    expect(checkout.clientSecret).toMatch(/^pi_sb_[\w-]+_secret_/);
    expect(await subscriptionOf(user.id)).toMatchObject({ status: "INCOMPLETE", provider: "sandbox" });

    expect(await payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.success))).toEqual({
      next: `/subscription/unsafe/payment-intent?checkout=${checkout.id}`,
    });
    const sub = await subscriptionOf(user.id);
    expect(sub).toMatchObject({ status: "ACTIVE", planId: "monthly", amountCents: 2000 });
    expect(sub!.currentPeriodEnd!.getTime()).toBeGreaterThan(Date.now() + 27 * DAY);
    const paid = await paymentsOf(user.id);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ kind: "subscription", amountCents: 2000, status: "succeeded", cardLast4: "4242" });
    const [settled] = await database.db.select().from(checkouts).where(eq(checkouts.id, checkout.id));
    expect(settled).toMatchObject({ status: "succeeded", subscriptionId: sub!.id, paymentId: paid[0]!.id });

    const again = (await loadViewer(database.db, viewer.session.id))!;
    expect(again.member.nolCreator).toBe(true);
    expect(again.subscription?.status).toBe("ACTIVE");

    await sendReceipt(services, paid[0]!.id);
    await sendReceipt(services, paid[0]!.id);
    const receipts = await database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, user.email), eq(mailOutbox.template, "payment-receipt")));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.text).toContain("$20.00");
    expect((await returnPage(services, checkout, viewer)).outcome.status).toBe("succeeded");
  });

  it("shows a declined card's message, charges nothing, and takes another card on the same checkout", async () => {
    const { user, viewer } = await member();
    const checkout = await startCheckout(services, { viewer }, input());
    const declined = await refusal(payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.declined)));
    expect(declined.message).toBe("Your card was declined.");
    expect(declined.fieldErrors).toEqual({ cardNumber: ["Your card was declined."] });
    expect(await paymentsOf(user.id)).toHaveLength(0);
    expect((await subscriptionOf(user.id))?.status).toBe("INCOMPLETE");
    expect((await returnPage(services, checkout, viewer)).outcome).toMatchObject({ status: "failed" });

    await payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.success));
    expect((await subscriptionOf(user.id))?.status).toBe("ACTIVE");
    expect(await paymentsOf(user.id)).toHaveLength(1);
  });

  it("passes the 3-D Secure card after its extra step, and fails it when the step fails", async () => {
    const { user, viewer } = await member();
    const checkout = await startCheckout(services, { viewer }, input());
    expect(await payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.authenticate))).toEqual({
      next: `/subscription/unsafe/authenticate?checkout=${checkout.id}`,
    });
    expect(await paymentsOf(user.id)).toHaveLength(0);
    expect((await authenticateSandbox(services, checkout, false)).next).toContain("authentication=failed");
    expect(await paymentsOf(user.id)).toHaveLength(0);

    await payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.authenticate));
    expect((await authenticateSandbox(services, checkout, true)).next).toContain("payment-intent");
    expect((await subscriptionOf(user.id))?.status).toBe("ACTIVE");
  });

  it("charges 80 % with a 20 % coupon, every payment, and counts the coupon once", async () => {
    const { user, viewer } = await member();
    const [before] = await database.db.select().from(coupons).where(eq(coupons.id, "MEMBER20"));
    const checkout = await startCheckout(services, { viewer }, input({ couponSlug: "members-friends" }));
    expect(checkout).toMatchObject({ amountCents: 1600, listAmountCents: 2000, couponId: "MEMBER20" });
    await payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.success));
    await payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.success));
    expect(await paymentsOf(user.id)).toMatchObject([{ amountCents: 1600, listAmountCents: 2000 }]);
    const [after] = await database.db.select().from(coupons).where(eq(coupons.id, "MEMBER20"));
    expect(after!.timesRedeemed).toBe(before!.timesRedeemed + 1);
    expect(
      await database.db.select().from(couponRedemptions).where(eq(couponRedemptions.checkoutId, checkout.id)),
    ).toHaveLength(1);

    // The renewal keeps the coupon: it lasts forever.
    const sub = (await subscriptionOf(user.id))!;
    await renewSandboxSubscriptions(services, { subscriptionRef: sub.providerSubscriptionId! });
    expect((await paymentsOf(user.id)).map((p) => p.amountCents).sort()).toEqual([1600, 1600]);
  });

  it("refuses a coupon that is not for the plan, expired or unknown, and charges nothing", async () => {
    const { user, viewer } = await member();
    const notForPlan = await refusal(
      startCheckout(services, { viewer }, input({ planId: "annual", couponSlug: "friends" })),
    );
    expect(notForPlan.fieldErrors).toEqual({ coupon: ["This coupon is not for the Annual membership"] });
    const unknown = await refusal(startCheckout(services, { viewer }, input({ couponSlug: "no-such-offer" })));
    expect(unknown.fieldErrors).toEqual({ coupon: ["This offer is not available"] });
    await database.db
      .update(coupons)
      .set({ redeemBy: new Date(Date.now() - DAY) })
      .where(eq(coupons.id, "WELCOME10"));
    const expired = await refusal(startCheckout(services, { viewer }, input({ couponSlug: "welcome" })));
    expect(expired.fieldErrors).toEqual({ coupon: ["This coupon has expired"] });
    await database.db.update(coupons).set({ redeemBy: null }).where(eq(coupons.id, "WELCOME10"));
    expect(await database.db.select().from(checkouts).where(eq(checkouts.userId, user.id))).toHaveLength(0);
    expect(await subscriptionOf(user.id)).toBeUndefined();
  });

  it("makes one checkout and one charge of a pay form submitted twice", async () => {
    const { user, viewer } = await member();
    const same = input();
    const [first, second] = await Promise.all([
      startCheckout(services, { viewer }, same),
      startCheckout(services, { viewer }, same),
    ]);
    expect(second.id).toBe(first.id);
    // Whichever submit came second waited for the first's payment at the provider.
    expect(first.clientSecret).not.toBeNull();
    expect(second.clientSecret).toBe(first.clientSecret);
    await Promise.all([
      payWithSandboxCard(services, first, card(SANDBOX_CARDS.success)),
      payWithSandboxCard(services, first, card(SANDBOX_CARDS.success)),
    ]);
    expect(await paymentsOf(user.id)).toHaveLength(1);
    expect(await database.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id))).toHaveLength(1);
  });

  it("lets a member who left the card page start again: the unpaid subscription gives way", async () => {
    const { user, viewer } = await member();
    await startCheckout(services, { viewer }, input());
    const second = await startCheckout(services, { viewer }, input({ planId: "annual" }));
    await payWithSandboxCard(services, second, card(SANDBOX_CARDS.success));
    const rows = await database.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    expect(rows.map((r) => `${r.planId} ${r.status}`).sort()).toEqual(["annual ACTIVE", "monthly CANCELED"]);
  });

  it("refuses a second subscription while one is in force", async () => {
    const { viewer } = await member();
    const checkout = await startCheckout(services, { viewer }, input());
    await payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.success));
    const again = await refusal(startCheckout(services, { viewer }, input({ planId: "annual" })));
    expect(again.status).toBe(409);
  });

  it.each([
    [0, "Enter a donation from 1.00 to 10,000.00"],
    [-500, "Enter a donation from 1.00 to 10,000.00"],
    [99, "Enter a donation from 1.00 to 10,000.00"],
    [1_000_001, "Enter a donation from 1.00 to 10,000.00"],
    [null, "Enter a donation from 1.00 to 10,000.00"],
    [12.5, "Enter a donation from 1.00 to 10,000.00"],
  ])("refuses a donation of %s cents with a clear message", async (amount, message) => {
    const { user, viewer } = await member();
    const refused = await refusal(
      startCheckout(services, { viewer }, input({ planId: "donation", donationCents: amount })),
    );
    expect(refused.fieldErrors).toEqual({ amount: [message] });
    expect(await database.db.select().from(checkouts).where(eq(checkouts.userId, user.id))).toHaveLength(0);
  });

  it("refuses an unknown plan", async () => {
    const { viewer } = await member();
    const refused = await refusal(startCheckout(services, { viewer }, input({ planId: "platinum" })));
    expect(refused.fieldErrors).toEqual({ planId: ["Choose a membership"] });
  });

  it("takes a visitor's donation by e-mail, and the member who signs up with it claims it", async () => {
    const email = `giver-${randomUUID()}@example.org`;
    const checkout = await startCheckout(services, { email }, input({ planId: "donation", donationCents: 2500 }));
    const subscribe = await refusal(startCheckout(services, { email }, input()));
    expect(subscribe.status).toBe(401);
    await payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.success));
    const [donation] = await database.db.select().from(payments).where(eq(payments.checkoutId, checkout.id));
    expect(donation).toMatchObject({ kind: "donation", userId: null, email, amountCents: 2500, status: "succeeded" });
    expect((await returnPage(services, checkout, null)).claimWith).toBe(email);

    // Signing up with the address claims the payment once the address is confirmed.
    const { user } = await member({ email, emailVerifiedAt: null });
    expect(await paymentsOf(user.id)).toHaveLength(0);
    const token = await issueToken(database.db, "verify_email", user.id, 60_000);
    expect(await verifyEmail(services, token)).toBe(true);
    expect(await paymentsOf(user.id)).toMatchObject([{ kind: "donation", amountCents: 2500 }]);
    expect(await claimPayments(services, user.id, email)).toBe(0);
  });

  it("fails the first renewal of the 0341 card: PAST_DUE, a notice, features kept for the grace period", async () => {
    const { user, viewer } = await member();
    const checkout = await startCheckout(services, { viewer }, input());
    await payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.failsRenewal));
    const sub = (await subscriptionOf(user.id))!;
    expect(sub.status).toBe("ACTIVE");

    // The period ends: the sweep on the real clock renews what is due.
    const due = new Date(sub.currentPeriodEnd!.getTime() + 1_000);
    expect(await renewSandboxSubscriptions(services, { now: due })).toBeGreaterThanOrEqual(1);
    const after = (await subscriptionOf(user.id))!;
    expect(after.status).toBe("PAST_DUE");
    expect(after.pastDueSince).not.toBeNull();
    const failed = (await paymentsOf(user.id)).filter((p) => p.status === "failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]!.failureMessage).toBe("Your card was declined.");
    const session = await createSession(database.db, user.id);
    const pastDueFor = async (days: number) => {
      const since = new Date(Date.now() - days * DAY);
      await database.db.update(subscriptions).set({ pastDueSince: since }).where(eq(subscriptions.id, after.id));
      return (await loadViewer(database.db, session.id))!.member.nolCreator;
    };
    expect(await pastDueFor(6)).toBe(true);
    expect(await pastDueFor(8)).toBe(false);
  });

  it("ends a subscription canceled at the period's end when the period ends", async () => {
    const { user, viewer } = await member();
    const checkout = await startCheckout(services, { viewer }, input());
    await payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.success));
    const sub = (await subscriptionOf(user.id))!;
    await services.providers.payments.cancelSubscription(sub.providerSubscriptionId!, { atPeriodEnd: true });
    await deliverSandboxEvents(services);
    expect(await subscriptionOf(user.id)).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: true });
    await renewSandboxSubscriptions(services, { now: new Date(sub.currentPeriodEnd!.getTime() + 1_000) });
    expect(await subscriptionOf(user.id)).toMatchObject({ status: "CANCELED", cancelAtPeriodEnd: false });
    expect(await paymentsOf(user.id)).toHaveLength(1);
  });

  // Two deliveries of one subscription's events at once (Stripe sends them so): the invoice's
  // waits for the row the other is making, then pays on it. PGlite has one connection: no two
  // transactions at once there.
  if (driver === "postgres")
    it("records an invoice paid while another delivery is making its subscription's row", async () => {
      const { user, viewer } = await member();
      const checkout = await startCheckout(services, { viewer }, input());
      const sandbox = services.providers.paymentsSandbox!;
      await sandbox.confirmCard(checkout.clientSecret!, { number: SANDBOX_CARDS.success, expiry: "12/39", cvc: "123" });
      const events = await sandbox.undeliveredEvents();
      const paid = events.find((e) => e.type === "invoice.paid" && e.invoice.metadata.checkout_id === checkout.id);
      expect(paid).toBeDefined();
      const ref = paid!.type === "invoice.paid" ? paid!.invoice.subscriptionRef : "";
      // As if the subscription's first event had not been applied yet: no row of ours.
      const [ours] = await database.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
      await database.db.update(checkouts).set({ subscriptionId: null }).where(eq(checkouts.id, checkout.id));
      await database.db.delete(subscriptions).where(eq(subscriptions.id, ours!.id));
      // The other delivery's row, made and held uncommitted while the invoice is applied.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let made!: () => void;
      const inserted = new Promise<void>((resolve) => (made = resolve));
      const other = database.db.transaction(async (tx) => {
        await tx.insert(subscriptions).values({
          userId: user.id,
          planId: "monthly",
          status: "INCOMPLETE",
          provider: "sandbox",
          providerSubscriptionId: ref,
          checkoutId: checkout.id,
        });
        made();
        await held;
      });
      await inserted;
      const applying = applyPaymentEvent(database.db, paid!);
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      await other;
      expect(await applying).toMatchObject({ outcome: "applied" });
      expect(await paymentsOf(user.id)).toHaveLength(1);
      expect(await subscriptionOf(user.id)).toMatchObject({ status: "ACTIVE", providerSubscriptionId: ref });
      await deliverSandboxEvents(services);
      expect(await paymentsOf(user.id)).toHaveLength(1);
    });

  it("applies an event replayed 100 times once", async () => {
    const { user, viewer } = await member();
    const checkout = await startCheckout(services, { viewer }, input());
    await payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.success));
    const [stored] = await database.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.provider, "sandbox"), eq(webhookEvents.type, "invoice.paid")))
      .orderBy(webhookEvents.id);
    const event = (await services.providers.paymentsSandbox!.undeliveredEvents()).length;
    expect(event).toBe(0);
    const payload = stored!.payload as Parameters<typeof applyPaymentEvent>[1];
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, () =>
        applyPaymentEvent(database.db, {
          ...payload,
          occurredAt: new Date(payload.occurredAt),
        } as Parameters<typeof applyPaymentEvent>[1]),
      ),
    );
    expect(outcomes.every((o) => o.outcome === "duplicate")).toBe(true);
    expect(await paymentsOf(user.id)).toHaveLength(1);
  });

  it("repairs a payment whose delivery was cut off: the sweep delivers what the sandbox kept", async () => {
    const { user, viewer } = await member();
    const checkout = await startCheckout(services, { viewer }, input({ planId: "donation", donationCents: 1000 }));
    // The provider took the payment, and the server died before our side heard of it.
    await services.providers.paymentsSandbox!.confirmCard(checkout.clientSecret!, {
      number: SANDBOX_CARDS.success,
      expiry: "12/39",
      cvc: "123",
    });
    expect(await paymentsOf(user.id)).toHaveLength(0);
    expect(await deliverSandboxEvents(services)).toBeGreaterThan(0);
    expect(await paymentsOf(user.id)).toMatchObject([{ kind: "donation", amountCents: 1000, status: "succeeded" }]);
  });

  it("completes setup when the membership step's payment goes through", async () => {
    const { user, viewer } = await member({ needsSetup: true, setupStep: "membership" });
    const checkout = await startCheckout(services, { viewer }, input({ planId: "annual" }));
    await payWithSandboxCard(services, checkout, card(SANDBOX_CARDS.success));
    const [done] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(done).toMatchObject({ needsSetup: false, setupStep: null });
  });

  it("keeps its own records apart from ours", async () => {
    const kinds = await database.db.selectDistinct({ type: sandboxObjects.type }).from(sandboxObjects);
    expect(kinds.map((k) => k.type).sort()).toEqual(
      expect.arrayContaining(["customer", "event", "invoice", "payment_intent", "subscription"]),
    );
  });
});
