import { randomUUID } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import { auditLog, billingCustomers, checkouts, mailOutbox, payments, subscriptions, users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { SANDBOX_CARDS } from "~/providers/payments/sandbox.server";
import { PaymentDeclined, PaymentsUnavailable } from "~/providers/payments/types";
import { loader as membershipApi } from "~/routes/api.billing.membership";
import { loader as embedLoader } from "~/routes/embed.subscription";
import { action as membersAction, loader as membersLoader } from "~/routes/members.$userId";
import { loader as profilePageLoader } from "~/routes/profile.($page)";
import { action as profileAction, loader as profileLoader } from "~/routes/profile.billing._index";
import { action as receiptAction, loader as receiptLoader } from "~/routes/profile.billing.receipts.$paymentId";
import { action as cardAction, loader as cardLoader } from "~/routes/subscription.unsafe.card-plus";
import { loader as returnLoader } from "~/routes/subscription.unsafe.payment-intent";
import { PAYMENTS_DOWN_MESSAGE, startCheckout } from "~/services/billing/checkout.server";
import { NO_MEMBERSHIP_MESSAGE } from "~/services/billing/account-changes.server";
import { payWithSandboxCard } from "~/services/billing/pages.server";
import { renewSandboxSubscriptions } from "~/services/billing/sandbox.server";
import { loadViewer, sessionState, siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { signedRequest } from "../helpers/state";
import { createSession, createUser, newDeviceKey } from "../helpers/users";

const card = (number: string, expiry = "12/39") => ({ cardNumber: number, expiry, cvc: "123" });

/** A loader's or action's answer, thrown or returned. */
async function answer(run: Promise<unknown>): Promise<Response> {
  try {
    return (await run) as Response;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe.each(drivers)("a member's billing (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let services: AppServices;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database);
    services = context.app!;
  });
  afterAll(async () => {
    await database?.dispose();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  type Member = Awaited<ReturnType<typeof member>>;
  const member = async (overrides: Parameters<typeof createUser>[1] = {}) => {
    const user = await createUser(database.db, overrides);
    const session = await createSession(database.db, user.id);
    const cookie = await siteCookies(services.config).session.serialize(session.id);
    const viewer = async () => (await loadViewer(database.db, session.id))!;
    return { user, cookie, viewer };
  };
  /** A member with a monthly membership paid by the card given. */
  const subscriber = async (number: string = SANDBOX_CARDS.success, couponSlug: string | null = null) => {
    const m = await member();
    const checkout = await startCheckout(
      services,
      { viewer: await m.viewer() },
      { attempt: randomUUID(), planId: "monthly", donationCents: null, couponSlug },
    );
    await payWithSandboxCard(services, checkout, card(number));
    return m;
  };
  const subscriptionOf = async (userId: string) =>
    (
      await database.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId))
        .orderBy(desc(subscriptions.createdAt))
    )[0];

  const get = (url: string, cookie = "") => new Request(`http://localhost${url}`, { headers: { cookie } });
  const post = (url: string, cookie: string, fields: Record<string, string>) =>
    new Request(`http://localhost${url}`, { method: "POST", headers: { cookie }, body: new URLSearchParams(fields) });

  const billing = async (m: Member) => {
    const response = await answer(
      profileLoader({ request: get("/profile/billing", m.cookie), params: { page: "billing" }, context }),
    );
    expect(response.status).toBe(200);
    return (await response.json()).billing as {
      attempt: string;
      membership: Record<string, unknown> & { actions: Record<string, boolean> };
      card: Record<string, unknown> | null;
      plans: { id: string }[];
      payments: (Record<string, unknown> & { id: string })[];
    };
  };
  const act = (m: Member, fields: Record<string, string>) =>
    answer(
      profileAction({ request: post("/profile/billing", m.cookie, fields), params: { page: "billing" }, context }),
    );
  /** A refused form: its status and its messages, by field ("" for the form's own). */
  const refused = async (response: Response) => ({
    status: response.status,
    errors: ((await response.json()) as { result: { error: Record<string, string[]> } }).result.error,
  });

  describe("/profile/billing", () => {
    it("sends a visitor to login, remembering the page", async () => {
      const response = await answer(
        profileLoader({ request: get("/profile/billing"), params: { page: "billing" }, context }),
      );
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/login?redirectTo=%2Fprofile%2Fbilling");
      const posted = await act({ cookie: "" } as Member, { intent: "cancel" });
      expect(posted.headers.get("location")).toMatch(/^\/login\?/);
    });

    it("is not found under another sub-page name", async () => {
      const m = await member();
      const response = await answer(
        profilePageLoader({ request: get("/profile/bills", m.cookie), params: { page: "bills" }, context }),
      );
      expect(response.status).toBe(404);
    });

    it("shows a demo member the first payment of their membership, made when it began, at its plan's price", async () => {
      const [demo] = await database.db.select().from(users).where(eq(users.username, "tester"));
      const session = await createSession(database.db, demo!.id);
      const page = await billing({
        cookie: await siteCookies(services.config).session.serialize(session.id),
      } as Member);
      expect(page.membership).toMatchObject({ plan: "Supporter membership", status: "ACTIVE", amountCents: 500 });
      expect(page.payments).toMatchObject([
        {
          what: "Supporter membership",
          amountCents: 500,
          status: "succeeded",
          card: "Visa ending in 4242",
          hasReceipt: true,
        },
      ]);
      // The payment paid the period the membership is in: the next one is due at its end.
      expect(page.payments[0]!.periodEnd).toBe(page.membership.renewsOn);
    });

    it("shows no membership to a member without one", async () => {
      const m = await member();
      expect(await billing(m)).toMatchObject({ membership: null, card: null, plans: [], payments: [] });
    });

    it("shows the plan, its status, the next payment after the coupon, the card and the payments", async () => {
      const m = await subscriber(SANDBOX_CARDS.success, "members-friends");
      const page = await billing(m);
      expect(page.membership).toMatchObject({
        plan: "Monthly membership",
        status: "ACTIVE",
        statusText: "Active",
        amountCents: 1600,
        listAmountCents: 2000,
        endsOn: null,
        actions: { changePlan: true, cancel: true, resume: false, updateCard: true },
      });
      expect(new Date(page.membership.renewsOn as string).getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);
      expect(page.card).toEqual({ brand: "visa", last4: "4242", expMonth: 12, expYear: 2039 });
      expect(page.plans.map((p) => p.id)).toEqual(["annual", "supporter"]);
      expect(page.payments).toMatchObject([
        {
          what: "Monthly membership",
          amountCents: 1600,
          listAmountCents: 2000,
          status: "succeeded",
          statusText: "Paid",
          card: "Visa ending in 4242",
          hasReceipt: true,
        },
      ]);
    });
  });

  describe("changing the plan", () => {
    it("moves the membership to the annual plan through the provider's event and says so", async () => {
      const m = await subscriber();
      const { attempt } = await billing(m);
      const response = await act(m, { intent: "change-plan", attempt, planId: "annual" });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/profile/billing");
      expect(response.headers.get("set-cookie")).toContain("mh_flash");
      expect(await subscriptionOf(m.user.id)).toMatchObject({
        planId: "annual",
        listAmountCents: 20000,
        amountCents: 20000,
      });
      expect((await billing(m)).membership).toMatchObject({ plan: "Annual membership" });
      const [entry] = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "subscription.change-plan"), eq(auditLog.actorUserId, m.user.id)));
      expect(entry?.data).toEqual({ from: "monthly", to: "annual" });
    });

    it.each([
      ["platinum", "Choose a membership"],
      ["donation", "The Donation is not a membership"],
      ["notarize-credit", "The Notarize credit is not a membership"],
      ["monthly", "You have the Monthly membership already"],
    ])("refuses the plan %s with 400 and changes nothing", async (planId, message) => {
      const m = await subscriber();
      const changePlan = vi.spyOn(services.providers.payments, "changePlan");
      const { status, errors } = await refused(await act(m, { intent: "change-plan", attempt: randomUUID(), planId }));
      expect(status).toBe(400);
      expect(errors.planId).toEqual([message]);
      expect(changePlan).not.toHaveBeenCalled();
      expect(await subscriptionOf(m.user.id)).toMatchObject({ planId: "monthly", amountCents: 2000 });
    });

    it("refuses a member without a membership with 400", async () => {
      const m = await member();
      const { status, errors } = await refused(
        await act(m, { intent: "change-plan", attempt: randomUUID(), planId: "annual" }),
      );
      expect(status).toBe(400);
      expect(errors[""]).toEqual([NO_MEMBERSHIP_MESSAGE]);
    });

    it("shows the provider's refusal and changes nothing", async () => {
      const m = await subscriber();
      vi.spyOn(services.providers.payments, "changePlan").mockRejectedValueOnce(
        new PaymentDeclined("This plan cannot be used with your card."),
      );
      const { status, errors } = await refused(
        await act(m, { intent: "change-plan", attempt: randomUUID(), planId: "annual" }),
      );
      expect(status).toBe(400);
      expect(errors[""]).toEqual(["This plan cannot be used with your card."]);
      expect((await subscriptionOf(m.user.id))?.planId).toBe("monthly");
    });

    it("refuses a form without its attempt or plan with 400", async () => {
      const m = await subscriber();
      const { status, errors } = await refused(await act(m, { intent: "change-plan", attempt: "x" }));
      expect(status).toBe(400);
      expect(errors.attempt).toEqual(["Reload the page and try again"]);
      expect(errors.planId).toEqual(["Choose a membership"]);
      expect((await refused(await act(m, { intent: "delete-everything" }))).status).toBe(400);
    });
  });

  describe("cancelling and resuming", () => {
    it("cancels at the period's end, keeps the membership until then, and resumes it", async () => {
      const m = await subscriber();
      const response = await act(m, { intent: "cancel" });
      expect(response.status).toBe(302);
      expect(await subscriptionOf(m.user.id)).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: true });
      const page = await billing(m);
      expect(page.membership).toMatchObject({
        statusText: "Active until the end of this period",
        renewsOn: null,
        actions: { cancel: false, resume: true },
      });
      expect(page.membership.endsOn).toBe(page.membership.periodEnd);

      const twice = await refused(await act(m, { intent: "cancel" }));
      expect(twice).toEqual({
        status: 400,
        errors: { "": ["Your membership already ends at the end of this period."] },
      });

      expect((await act(m, { intent: "resume" })).status).toBe(302);
      expect(await subscriptionOf(m.user.id)).toMatchObject({ status: "ACTIVE", cancelAtPeriodEnd: false });
      const again = await refused(await act(m, { intent: "resume" }));
      expect(again.errors[""]).toEqual(["Your membership is not set to end: there is nothing to resume."]);
    });

    it("refuses to cancel or resume when there is no membership, with 400", async () => {
      const m = await member();
      expect(await refused(await act(m, { intent: "cancel" }))).toEqual({
        status: 400,
        errors: { "": ["You have no membership to cancel."] },
      });
      expect((await refused(await act(m, { intent: "resume" }))).status).toBe(400);
    });

    it("says payments are down when the provider is, and changes nothing", async () => {
      const m = await subscriber();
      vi.spyOn(services.providers.payments, "cancelSubscription").mockRejectedValueOnce(
        new PaymentsUnavailable("connection reset"),
      );
      const { status, errors } = await refused(await act(m, { intent: "cancel" }));
      expect(status).toBe(503);
      expect(errors[""]).toEqual([PAYMENTS_DOWN_MESSAGE]);
      expect((await subscriptionOf(m.user.id))?.cancelAtPeriodEnd).toBe(false);
    });

    it("shows a first payment never made with the way to finish it, and nothing to change", async () => {
      const m = await member();
      await startCheckout(
        services,
        { viewer: await m.viewer() },
        { attempt: randomUUID(), planId: "monthly", donationCents: null, couponSlug: null },
      );
      const page = await billing(m);
      expect(page.membership).toMatchObject({
        status: "INCOMPLETE",
        statusText: "Waiting for the first payment",
        actions: { changePlan: false, cancel: false, resume: false, updateCard: false },
      });
      expect(page.membership.finishPayment).toMatch(/^\/subscription\/unsafe\/card-plus\?checkout=/);
      expect(await refused(await act(m, { intent: "cancel" }))).toEqual({
        status: 400,
        errors: { "": ["You have no membership to cancel."] },
      });
    });
  });

  describe("updating the card", () => {
    const cardUpdate = async (m: Member) => {
      const { attempt } = await billing(m);
      const response = await act(m, { intent: "update-card", attempt });
      expect(response.status).toBe(302);
      const location = response.headers.get("location")!;
      expect(location).toMatch(/^\/subscription\/unsafe\/card-plus\?checkout=[0-9a-f-]{36}$/);
      return { attempt, location, checkoutId: new URL(location, "http://localhost").searchParams.get("checkout")! };
    };
    const typeCard = (m: Member, location: string, number: string, expiry?: string) => {
      const body = new URLSearchParams(card(number, expiry));
      return answer(
        cardAction({
          request: new Request(`http://localhost${location}`, { method: "POST", headers: { cookie: m.cookie }, body }),
          params: {},
          context,
        }),
      );
    };

    it("saves a new card through a card checkout: card page, setup intent, card.updated, return page", async () => {
      const m = await subscriber();
      const { attempt, location, checkoutId } = await cardUpdate(m);
      const [checkout] = await database.db.select().from(checkouts).where(eq(checkouts.id, checkoutId));
      expect(checkout).toMatchObject({ id: attempt, kind: "card", amountCents: 0, listAmountCents: 0, status: "open" });
      expect(checkout!.providerRef).toMatch(/^seti_sb_/);
      expect(checkout!.clientSecret).toMatch(/^seti_sb_[\w-]+_secret_/);
      const [customer] = await database.db
        .select()
        .from(billingCustomers)
        .where(eq(billingCustomers.userId, m.user.id));
      expect(checkout!.providerCustomerId).toBe(customer!.providerCustomerId);

      // The same form sent again is the same checkout.
      expect((await act(m, { intent: "update-card", attempt })).headers.get("location")).toBe(location);

      const page = await answer(cardLoader({ request: get(location, m.cookie), params: {}, context }));
      expect(await page.json()).toMatchObject({ summary: { kind: "card", what: "Your new card" }, done: false });

      const declined = await typeCard(m, location, SANDBOX_CARDS.declined);
      expect(declined.status).toBe(402);
      expect((await billing(m)).card).toMatchObject({ last4: "4242" });

      const saved = await typeCard(m, location, "4000 0000 0000 0341", "11/38");
      expect(saved.headers.get("location")).toBe(`/subscription/unsafe/payment-intent?checkout=${checkoutId}`);
      expect((await billing(m)).card).toEqual({ brand: "visa", last4: "0341", expMonth: 11, expYear: 2038 });
      const [settled] = await database.db.select().from(checkouts).where(eq(checkouts.id, checkoutId));
      expect(settled?.status).toBe("succeeded");
      const back = await answer(
        returnLoader({
          request: get(`/subscription/unsafe/payment-intent?checkout=${checkoutId}`, m.cookie),
          params: {},
          context,
        }),
      );
      expect((await back.json()).outcome).toEqual({ status: "succeeded", message: "Your card was updated." });
    });

    it("tells a PAST_DUE member why, offers the card first, and the new card pays the next try", async () => {
      const m = await subscriber(SANDBOX_CARDS.failsRenewal);
      const sub = (await subscriptionOf(m.user.id))!;
      await renewSandboxSubscriptions(services, { subscriptionRef: sub.providerSubscriptionId! });
      const page = await billing(m);
      expect(page.membership).toMatchObject({
        status: "PAST_DUE",
        pastDueReason: "Your card was declined.",
        actions: { updateCard: true },
      });
      expect(page.payments[0]).toMatchObject({ status: "failed", statusText: "Failed: Your card was declined." });
      expect(page.payments[0]!.hasReceipt).toBe(false);

      const { location } = await cardUpdate(m);
      await typeCard(m, location, SANDBOX_CARDS.success);
      await renewSandboxSubscriptions(services, { subscriptionRef: sub.providerSubscriptionId! });
      expect((await subscriptionOf(m.user.id))?.status).toBe("ACTIVE");
    });

    it("refuses a member without a membership with 400 and starts nothing", async () => {
      const m = await member();
      const { status } = await refused(await act(m, { intent: "update-card", attempt: randomUUID() }));
      expect(status).toBe(400);
      expect(await database.db.select().from(checkouts).where(eq(checkouts.userId, m.user.id))).toHaveLength(0);
    });
  });

  describe("receipts", () => {
    const receiptOf = (m: Member, paymentId: string) =>
      answer(
        receiptLoader({
          request: get(`/profile/billing/receipts/${paymentId}`, m.cookie),
          params: { paymentId },
          context,
        }),
      );
    const emailOf = (m: Member, paymentId: string) =>
      answer(
        receiptAction({
          request: post(`/profile/billing/receipts/${paymentId}`, m.cookie, { intent: "email-receipt" }),
          params: { paymentId },
          context,
        }),
      );
    const mailTo = (email: string) =>
      database.db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, email), eq(mailOutbox.template, "payment-receipt")));

    it("shows the member's own receipt and e-mails it again on request", async () => {
      const m = await subscriber();
      const [paid] = await database.db.select().from(payments).where(eq(payments.userId, m.user.id));
      const page = await receiptOf(m, paid!.id);
      expect(page.status).toBe(200);
      expect(await page.json()).toMatchObject({
        payment: { id: paid!.id, what: "Monthly membership", amountCents: 2000, card: "Visa ending in 4242" },
        paidBy: { email: m.user.email },
      });

      const before = (await mailTo(m.user.email)).length;
      const sent = await emailOf(m, paid!.id);
      expect(sent.status).toBe(302);
      expect(sent.headers.get("location")).toBe(`/profile/billing/receipts/${paid!.id}`);
      const mails = await mailTo(m.user.email);
      expect(mails).toHaveLength(before + 1);
      expect(mails.at(-1)!.text).toContain(`Receipt: ${paid!.id}`);
      expect(mails.at(-1)!.text).toContain("$20.00");
    });

    it("answers another member's receipt, and a malformed id, with 404", async () => {
      const owner = await subscriber();
      const other = await member();
      const [paid] = await database.db.select().from(payments).where(eq(payments.userId, owner.user.id));
      expect((await receiptOf(other, paid!.id)).status).toBe(404);
      expect((await emailOf(other, paid!.id)).status).toBe(404);
      expect(await mailTo(other.user.email)).toHaveLength(0);
      expect((await receiptOf(other, "not-a-payment")).status).toBe(404);
      const visitor = await answer(
        receiptLoader({
          request: get(`/profile/billing/receipts/${paid!.id}`),
          params: { paymentId: paid!.id },
          context,
        }),
      );
      expect(visitor.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
    });

    it("sends no receipt for a failed payment", async () => {
      const m = await subscriber(SANDBOX_CARDS.failsRenewal);
      await renewSandboxSubscriptions(services, {
        subscriptionRef: (await subscriptionOf(m.user.id))!.providerSubscriptionId!,
      });
      const [failed] = await database.db
        .select()
        .from(payments)
        .where(and(eq(payments.userId, m.user.id), eq(payments.status, "failed")));
      const before = (await mailTo(m.user.email)).length;
      const { status, errors } = await refused(await emailOf(m, failed!.id));
      expect(status).toBe(400);
      expect(errors[""]).toEqual(["This payment did not go through: it has no receipt."]);
      expect(await mailTo(m.user.email)).toHaveLength(before);
    });

    it("shows a refunded payment as refunded", async () => {
      const m = await subscriber();
      await database.db
        .update(payments)
        .set({ status: "refunded", refundedCents: 2000 })
        .where(eq(payments.userId, m.user.id));
      expect((await billing(m)).payments[0]).toMatchObject({ statusText: "Refunded", hasReceipt: true });
    });
  });

  describe("GET /api/billing/membership", () => {
    const call = (request: Request) => answer(membershipApi({ request, params: {}, context }));

    it("answers a visitor 401 in JSON", async () => {
      const response = await call(get("/api/billing/membership"));
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: "Sign in first" });
    });

    it("answers the member on the session cookie with the membership", async () => {
      const m = await subscriber();
      const response = await call(get("/api/billing/membership", m.cookie));
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body.membership).toMatchObject({
        plan: "Monthly membership",
        status: "ACTIVE",
        statusText: "Active",
        amountCents: 2000,
        currency: "usd",
        cancelAtPeriodEnd: false,
      });
      expect(body.membership.renewsOn).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect((await call(get("/api/billing/membership", (await member()).cookie))).status).toBe(200);
      expect(await (await call(get("/api/billing/membership", (await member()).cookie))).json()).toEqual({
        membership: null,
      });
    });

    it("answers the member on the state headers, with the state", async () => {
      const m = await subscriber();
      const device = newDeviceKey();
      const session = await createSession(database.db, m.user.id, device.publicKey, "state");
      const state = sessionState((await loadViewer(database.db, session.id))!, services.config);
      const response = await call(
        signedRequest("/api/billing/membership", {
          state: state.stateString,
          hash: state.stateHash,
          devicePrivateKey: device.privateKey,
          config: services.config,
        }),
      );
      expect(response.status).toBe(200);
      expect((await response.json()).membership).toMatchObject({ status: "ACTIVE", plan: "Monthly membership" });
      const wrong = await call(
        signedRequest("/api/billing/membership", {
          state: state.stateString,
          hash: state.stateHash,
          devicePrivateKey: newDeviceKey().privateKey,
          config: services.config,
        }),
      );
      expect(wrong.status).toBe(401);
    });

    it("answers a member who has not finished setup 403", async () => {
      const m = await member({ needsSetup: true, setupStep: "profile" });
      expect((await call(get("/api/billing/membership", m.cookie))).status).toBe(403);
    });
  });

  describe("/embed/subscription", () => {
    it("gives anyone the plans with their prices", async () => {
      const response = await answer(embedLoader({ request: get("/embed/subscription"), params: {}, context }));
      const body = await response.json();
      expect(body.plans).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: "monthly", amountCents: 2000, interval: "month" }),
          expect.objectContaining({ id: "annual", amountCents: 20000, interval: "year" }),
          expect.objectContaining({ id: "donation", amountCents: null }),
        ]),
      );
    });
  });

  describe("the admins' member page", () => {
    const adminCookie = async () => (await member({ admin: true })).cookie;
    const memberPage = async (cookie: string, userId: string) =>
      answer(membersLoader({ request: get(`/members/${userId}`, cookie), params: { userId }, context }));
    const renewNow = (cookie: string, userId: string) =>
      answer(
        membersAction({
          request: post(`/members/${userId}`, cookie, { intent: "renew-now" }),
          params: { userId },
          context,
        }),
      );

    it("shows the member's membership and payments, and renews it now, audited", async () => {
      const m = await subscriber();
      const admin = await adminCookie();
      const page = await memberPage(admin, m.user.id);
      expect(page.status).toBe(200);
      const {
        page: { billing: section },
      } = await page.json();
      expect(section).toMatchObject({
        canRenew: true,
        membership: { plan: "Monthly membership", status: "ACTIVE", cancelAtPeriodEnd: false },
        payments: [{ amountCents: 2000, status: "succeeded" }],
      });

      const renewed = await renewNow(admin, m.user.id);
      expect(renewed.status).toBe(302);
      expect(renewed.headers.get("location")).toBe(`/members/${m.user.id}`);
      expect(await database.db.select().from(payments).where(eq(payments.userId, m.user.id))).toHaveLength(2);
      const sub = (await subscriptionOf(m.user.id))!;
      const [entry] = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "subscription.renew"), eq(auditLog.entityId, sub.id)));
      expect(entry?.data).toEqual({ from: "ACTIVE", to: "ACTIVE" });
    });

    it("ends a membership canceled at the period's end when renewed now", async () => {
      const m = await subscriber();
      await act(m, { intent: "cancel" });
      await renewNow(await adminCookie(), m.user.id);
      expect(await subscriptionOf(m.user.id)).toMatchObject({ status: "CANCELED", cancelAtPeriodEnd: false });
      const viewer = await m.viewer();
      expect(viewer.subscription?.status).toBe("CANCELED");
    });

    it("refuses a member who is no admin, and a member without a membership", async () => {
      const m = await subscriber();
      expect((await renewNow(m.cookie, m.user.id)).status).toBe(403);
      expect((await memberPage(m.cookie, m.user.id)).status).toBe(403);
      const none = await member();
      const admin = await adminCookie();
      expect((await (await memberPage(admin, none.user.id)).json()).page.billing).toMatchObject({
        membership: null,
        payments: [],
        canRenew: false,
      });
      expect((await renewNow(admin, none.user.id)).status).toBe(400);
    });
  });
});
