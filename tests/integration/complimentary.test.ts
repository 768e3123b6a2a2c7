import { randomUUID } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import { auditLog, subscriptions, users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { action as memberAction } from "~/routes/members.$userId";
import { action as membersAction } from "~/routes/members._index";
import { membershipOf } from "~/services/billing/account.server";
import { cancelMembership } from "~/services/billing/account-changes.server";
import { endDueComplimentary } from "~/services/billing/complimentary.server";
import { startCheckout } from "~/services/billing/checkout.server";
import { payWithSandboxCard } from "~/services/billing/pages.server";
import { readFlash } from "~/services/flash.server";
import { memberList, memberListQuery } from "~/services/member-listing.server";
import { loadViewer, siteCookies, type Viewer } from "~/services/session.server";
import { SANDBOX_CARDS } from "~/providers/payments/sandbox.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { answer } from "../helpers/requests";
import { createSession, createUser } from "../helpers/users";

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

describe.each(drivers)("complimentary memberships (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let services: AppServices;
  let adminCookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database);
    services = context.app!;
    const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
    adminCookie = await siteCookies(services.config).session.serialize(
      (await createSession(database.db, admin!.id)).id,
    );
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const viewerOf = async (userId: string): Promise<Viewer> =>
    (await loadViewer(database.db, (await createSession(database.db, userId)).id))!;

  /** The admins' member page form, posted as a browser posts it: the flash it leaves. */
  async function post(memberId: string, values: Record<string, string>) {
    const response = await answer(
      memberAction({
        request: new Request(`http://localhost/members/${memberId}`, {
          method: "POST",
          body: new URLSearchParams(values),
          headers: { cookie: adminCookie, "content-type": "application/x-www-form-urlencoded" },
        }),
        params: { userId: memberId },
        context,
      }),
    );
    expect(response.status).toBe(302);
    const flashCookie = (response.headers.get("set-cookie") ?? "").split(";")[0]!;
    return (await readFlash(new Request("http://localhost/", { headers: { cookie: flashCookie } }), services.config))
      .flash;
  }

  const rowsOf = (userId: string) =>
    database.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(subscriptions.createdAt);

  it("grants a plan with its features, as Complimentary everywhere, audited with the admin, without the payments provider", async () => {
    const payments = services.providers.payments;
    const calls = Object.keys(payments)
      .filter((key) => typeof (payments as unknown as Record<string, unknown>)[key] === "function")
      .map((key) => vi.spyOn(payments as unknown as Record<string, () => unknown>, key));
    const user = await createUser(database.db, {});
    expect((await viewerOf(user.id)).member.nolCreator).toBe(false);

    const flash = await post(user.id, {
      intent: "grant-complimentary",
      planId: "monthly",
      endsOn: day(30),
      note: "Volunteer of the month",
    });
    expect(flash).toMatchObject({
      kind: "success",
      message: expect.stringMatching(/Monthly membership as a complimentary membership until/),
    });
    for (const call of calls) expect(call).not.toHaveBeenCalled();
    vi.restoreAllMocks();

    const viewer = await viewerOf(user.id);
    expect(viewer.member.nolCreator).toBe(true);
    const [row] = await rowsOf(user.id);
    expect(row).toMatchObject({
      provider: "complimentary",
      status: "ACTIVE",
      planId: "monthly",
      grantNote: "Volunteer of the month",
      providerSubscriptionId: null,
    });
    expect(row!.currentPeriodEnd!.toISOString().slice(0, 10)).toBe(day(30));
    expect(await membershipOf(services, user.id)).toMatchObject({
      statusText: "Complimentary",
      renewsOn: null,
      actions: { changePlan: false, cancel: false, resume: false, updateCard: false },
    });
    const [listed] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(listed!.subscriptionStatus).toBe("COMPLIMENTARY");
    const filtered = await memberList(
      services,
      memberListQuery(new URLSearchParams({ status: "COMPLIMENTARY" })).query,
    );
    expect(filtered.rows.map((r) => r.id)).toContain(user.id);
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "membership.complimentary.grant"), eq(auditLog.entityId, user.id)));
    expect(entry).toMatchObject({ data: { plan: "monthly", endsOn: day(30), note: "Volunteer of the month" } });
    const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
    expect(entry!.actorUserId).toBe(admin!.id);

    // Nothing of it is changed at the provider by the member.
    await expect(cancelMembership(services, viewer)).rejects.toThrow(/complimentary/);
  });

  it("ends by itself on its day: the features stop on the day, the job marks it ended", async () => {
    const user = await createUser(database.db, {});
    await post(user.id, { intent: "grant-complimentary", planId: "annual", endsOn: day(2) });
    const later = new Date(Date.now() + 3 * DAY);
    const viewer = (await loadViewer(database.db, (await createSession(database.db, user.id)).id, { now: later }))!;
    expect(viewer.member.nolCreator).toBe(false);
    expect(await endDueComplimentary(services, new Date())).toBe(0);
    expect(await endDueComplimentary(services, later)).toBeGreaterThanOrEqual(1);
    const [row] = await rowsOf(user.id);
    expect(row).toMatchObject({ status: "CANCELED" });
    expect(row!.endedAt!.toISOString().slice(0, 10)).toBe(day(2));
  });

  it("keeps one membership when the member pays for one: the complimentary one ends once the paid one is in force", async () => {
    const user = await createUser(database.db, {});
    await post(user.id, { intent: "grant-complimentary", planId: "monthly" });
    const viewer = await viewerOf(user.id);
    const checkout = await startCheckout(
      services,
      { viewer },
      {
        attempt: randomUUID(),
        planId: "annual",
        donationCents: null,
        couponSlug: null,
      },
    );
    // While the card page is open, the complimentary one still counts.
    expect((await viewerOf(user.id)).member.nolCreator).toBe(true);
    await payWithSandboxCard(services, checkout, { cardNumber: SANDBOX_CARDS.success, expiry: "12/39", cvc: "123" });
    const rows = await rowsOf(user.id);
    expect(rows.map((r) => [r.provider, r.status])).toEqual([
      ["complimentary", "CANCELED"],
      ["sandbox", "ACTIVE"],
    ]);
    const [listed] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(listed!.subscriptionStatus).toBe("ACTIVE");
  });

  it("refuses a second membership, a bad plan or day and a long note, writing nothing; an admin ends one", async () => {
    const [paying] = await database.db.select().from(users).where(eq(users.username, "member"));
    const before = await database.db.select().from(subscriptions);
    const refusals: [Record<string, string>, RegExp][] = [
      [{ planId: "monthly" }, /pays for a membership already/],
      [{ planId: "donation" }, /Choose a membership plan/],
      [{ planId: "nothing" }, /Choose a membership plan/],
      [{ planId: "" }, /Choose a plan/],
      [{ planId: "monthly", endsOn: day(0) }, /after today/],
      [{ planId: "monthly", endsOn: day(-3) }, /after today/],
      [{ planId: "monthly", endsOn: day(4000) }, /within 10 years/],
      [{ planId: "monthly", endsOn: "2026-02-30" }, /real date/],
      [{ planId: "monthly", endsOn: "next week" }, /YYYY-MM-DD/],
      [{ planId: "monthly", note: "x".repeat(501) }, /at most 500 characters/],
    ];
    for (const [values, message] of refusals) {
      const flash = await post(paying!.id, { intent: "grant-complimentary", ...values });
      expect(flash, JSON.stringify(values)).toMatchObject({ kind: "error", message: expect.stringMatching(message) });
    }
    expect(await database.db.select().from(subscriptions)).toEqual(before);

    const user = await createUser(database.db, {});
    await post(user.id, { intent: "grant-complimentary", planId: "monthly" });
    expect(await post(user.id, { intent: "end-complimentary" })).toMatchObject({ kind: "success" });
    expect((await rowsOf(user.id)).map((r) => r.status)).toEqual(["CANCELED"]);
    expect((await viewerOf(user.id)).member.nolCreator).toBe(false);
  });

  it("gives the members ticked on the list a complimentary membership, leaving a paying one as they are", async () => {
    const [paying] = await database.db.select().from(users).where(eq(users.username, "member"));
    const fresh = [await createUser(database.db, {}), await createUser(database.db, {})];
    const bulk = async (values: [string, string][]) =>
      answer(
        membersAction({
          request: new Request("http://localhost/members", {
            method: "POST",
            body: new URLSearchParams(values),
            headers: { cookie: adminCookie, "content-type": "application/x-www-form-urlencoded" },
          }),
          params: {},
          context,
        }),
      );
    const ticked: [string, string][] = [...fresh.map((u) => ["ids", u.id] as [string, string]), ["ids", paying!.id]];
    const done = await bulk([
      ["action", "grant-complimentary"],
      ["scope", "selected"],
      ["planId", "annual"],
      ["endsOn", day(90)],
      ["note", "Partners"],
      ...ticked,
    ]);
    expect(done.status).toBe(302);
    const flashCookie = (done.headers.get("set-cookie") ?? "").split(";")[0]!;
    const { flash } = await readFlash(
      new Request("http://localhost/", { headers: { cookie: flashCookie } }),
      services.config,
    );
    expect(flash?.message).toBe(
      "2 members got a complimentary membership. 1 who pays for a membership left as they are.",
    );
    for (const u of fresh)
      expect(await rowsOf(u.id)).toMatchObject([
        { provider: "complimentary", planId: "annual", grantNote: "Partners" },
      ]);
    expect((await rowsOf(paying!.id)).map((r) => r.provider)).toEqual(["sandbox"]);

    // The whole filter, or no plan, is refused with the form's errors; nothing is written.
    const before = await database.db.select().from(subscriptions);
    const all = await bulk([
      ["action", "grant-complimentary"],
      ["scope", "all"],
      ["planId", "annual"],
    ]);
    expect(all.status).toBe(400);
    expect(JSON.stringify(await all.json())).toMatch(/Tick the members to give a complimentary membership to/);
    const noPlan = await bulk([["action", "grant-complimentary"], ["scope", "selected"], ...ticked]);
    expect(noPlan.status).toBe(400);
    expect(JSON.stringify(await noPlan.json())).toMatch(/Choose a plan/);
    expect(await database.db.select().from(subscriptions)).toEqual(before);
  });

  it("finishes setup for a member on its membership step", async () => {
    const user = await createUser(database.db, { needsSetup: true, setupStep: "membership" });
    await post(user.id, { intent: "grant-complimentary", planId: "monthly" });
    const [done] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(done).toMatchObject({ needsSetup: false, setupStep: null });
  });
});
