import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import { rowsOf } from "~/db/client.server";
import {
  auditLog,
  billingCustomers,
  errorReports,
  mailOutbox,
  newsletterSubscriptions,
  payments,
  sandboxObjects,
  sessions,
  subscriptions,
  supportRequests,
  userFactors,
  users,
  webhookEvents,
} from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { action as loginAction } from "~/routes/login._index";
import { action as undoAction, loader as undoLoader } from "~/routes/login.undo-delete";
import { action as profileAction } from "~/routes/profile.($page)";
import { audit } from "~/services/audit.server";
import { undoDeletion, WRONG_FACTOR } from "~/services/member-data/deletion.server";
import { eraseOnRequest, erasureSweepJob } from "~/services/member-data/erasure.server";
import { submitStep } from "~/services/nol/save-step.server";
import { loadViewer, siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { answer, formOf } from "../helpers/requests";
import { createSession, createUser, TEST_PASSWORD } from "../helpers/users";

const DAY_MS = 86_400_000;

type Person = { key: string; name: string; address: string; respondentAddress: string };
const ZOE: Person = {
  key: "zoe",
  name: "Zoe Quillfeather",
  address: "17 Larkspur Crescent",
  respondentAddress: "400 Tamarind Boulevard Suite 9",
};
const YVES: Person = {
  key: "yves",
  name: "Yves Marchbanks",
  address: "3 Oriel Mews",
  respondentAddress: "88 Cobbler Wynd",
};

/** Every text-like column of every table of the app's and the job queue's schemas. */
async function textColumns(database: TestDatabase) {
  return rowsOf<{ schema: string; table: string; column: string }>(
    await database.db.execute(`select c.table_schema as schema, c.table_name as table, c.column_name as column
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where t.table_type = 'BASE TABLE' and c.table_schema not in ('pg_catalog', 'information_schema')
        and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY', 'USER-DEFINED')`),
  );
}

/** The columns where any of the words is found (case-blind), as "schema.table.column". */
async function columnsHolding(database: TestDatabase, words: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const { schema, table, column } of await textColumns(database)) {
    const name = `"${schema}"."${table}"`;
    const patterns = words.map((w) => `%${w.toLowerCase()}%`);
    const result = await database.db.execute(
      `select count(*)::int as n from ${name} where lower("${column}"::text) like any (array[${patterns.map((p) => `'${p.replace(/'/g, "''")}'`).join(",")}])`,
    );
    if ((rowsOf<{ n: number }>(result)[0]?.n ?? 0) > 0) found.push(`${schema}.${table}.${column}`);
  }
  return found;
}

describe.each(drivers)("deleting and erasing an account (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let context: ReturnType<typeof testContext>;
  let adminId = "";
  const member: Record<string, typeof users.$inferSelect> = {};

  const cookieOf = async (userId: string) =>
    siteCookies(services.config).session.serialize((await createSession(database.db, userId)).id);

  const postProfile = async (userId: string, values: Record<string, string>) => {
    const request = new Request("http://localhost/profile", {
      method: "POST",
      headers: { cookie: await cookieOf(userId) },
      body: formOf(values),
    });
    return answer(profileAction({ request, params: {}, context }));
  };

  /** A member with a notice to a respondent, a payment, a membership, a factor and traces elsewhere. */
  async function memberWithRecords(person: Person) {
    const row = await createUser(database.db, { name: person.name, nolCreator: true, countryCode: "US" });
    member[person.key] = row;
    const viewer = (await loadViewer(database.db, (await createSession(database.db, row.id)).id))!;
    await submitStep(services, viewer, row, {
      causeCode: "TS",
      version: `${person.key}-2026`,
      kind: "notice",
      form: formOf({
        claimantName: person.name,
        dailyAmount: "250",
        r1Name: "Officer Adams",
        r1Type: "Official",
        r1Address: person.respondentAddress,
      }),
    });
    await database.db.insert(payments).values({
      userId: row.id,
      kind: "donation",
      amountCents: 2500,
      status: "succeeded",
      provider: "sandbox",
      providerRef: `pi_${person.key}`,
      email: row.email,
      createdAt: new Date("2026-01-15T10:00:00Z"),
    });
    const provider = services.providers.payments;
    const { customerRef } = await provider.createCustomer(
      { email: row.email, name: person.name, userId: row.id },
      randomUUID(),
    );
    await database.db
      .insert(billingCustomers)
      .values({ userId: row.id, email: row.email, provider: "sandbox", providerCustomerId: customerRef });
    const started = await provider.startSubscription({
      customerRef,
      plan: {
        id: "monthly",
        title: "Monthly membership",
        kind: "subscription",
        amountCents: 2000,
        currency: "usd",
        interval: "month",
        providerPriceId: null,
      },
      coupon: null,
      idempotencyKey: randomUUID(),
      metadata: {},
    });
    await database.db.insert(subscriptions).values({
      userId: row.id,
      planId: "monthly",
      status: "ACTIVE",
      provider: "sandbox",
      providerCustomerId: customerRef,
      providerSubscriptionId: started.subscriptionRef,
      amountCents: 2000,
    });
    // Traces not keyed to the member: an admin's search, a provider's event, a request, a mail.
    await audit(database.db, { actorUserId: adminId, agentUserId: null }, "records.export", "users", null, {
      filters: { q: row.email },
    });
    await database.db.insert(webhookEvents).values({
      provider: "stripe",
      eventId: `evt_${person.key}`,
      type: "customer.updated",
      payload: { data: { object: { email: row.email, name: person.name, address: { line1: person.address } } } },
    });
    await database.db.insert(supportRequests).values({ userId: row.id, email: row.email, message: "Help me" });
    await database.db.insert(newsletterSubscriptions).values({ email: row.email, unsubscribeTokenHash: randomUUID() });
    await database.db.insert(errorReports).values({
      userId: row.id,
      time: new Date(),
      href: "/profile",
      message: "boom",
      state: { username: row.username },
    });
    await services.providers.mail.send({ to: row.email, subject: "Hello", text: `Dear ${person.name}`, template: "x" });
    return row;
  }

  const wordsOf = (person: Person) => {
    const row = member[person.key]!;
    return [row.email, row.username, person.name, person.address, person.respondentAddress];
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    context = testContext(database);
    services = context.app!;
    adminId = (await database.db.select().from(users).where(eq(users.username, "admin")))[0]!.id;
    await memberWithRecords(ZOE);
    await memberWithRecords(YVES);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const readMember = async (key: string) =>
    (await database.db.select().from(users).where(eq(users.id, member[key]!.id)))[0]!;

  it("refuses a deletion whose password is wrong, and changes nothing", async () => {
    const response = await postProfile(member.zoe!.id, { intent: "delete-account", password: "not it" });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ intent: "delete-account", error: "That is not your password" });
    expect((await readMember("zoe")).deletionDueAt).toBeNull();
  });

  it("asks a member with a second factor for it, not for the password", async () => {
    await database.db
      .insert(userFactors)
      .values({ userId: member.yves!.id, kind: "passkey", name: `${YVES.name}'s laptop` });
    const response = await postProfile(member.yves!.id, { intent: "delete-account", password: TEST_PASSWORD });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: WRONG_FACTOR });
    expect((await readMember("yves")).deletionDueAt).toBeNull();
  });

  it("deletes with the password: membership cancelled and customer removed at the provider, sessions ended, erasure in 14 days", async () => {
    const response = await postProfile(member.zoe!.id, { intent: "delete-account", password: TEST_PASSWORD });
    expect(response.status).toBe(302);
    const zoe = await readMember("zoe");
    expect(zoe.deletionDueAt!.getTime() - zoe.deletionRequestedAt!.getTime()).toBe(14 * DAY_MS);
    const [subscription] = await database.db.select().from(subscriptions).where(eq(subscriptions.userId, zoe.id));
    expect(subscription!.status).toBe("CANCELED");
    const [atProvider] = await database.db
      .select()
      .from(sandboxObjects)
      .where(eq(sandboxObjects.id, subscription!.providerSubscriptionId!));
    expect(atProvider!.data.status).toBe("CANCELED");
    const customer = await database.db
      .select()
      .from(sandboxObjects)
      .where(eq(sandboxObjects.id, subscription!.providerCustomerId!));
    expect(customer).toEqual([]);
    expect(await database.db.select().from(billingCustomers).where(eq(billingCustomers.userId, zoe.id))).toEqual([]);
    const live = (await database.db.select().from(sessions).where(eq(sessions.userId, zoe.id))).filter(
      (s) => !s.revokedAt,
    );
    expect(live).toEqual([]);
  });

  it("offers to undo at login during the grace period, and keeps the account when asked", async () => {
    await database.db
      .insert(userFactors)
      .values({ userId: member.zoe!.id, kind: "passkey", name: `${ZOE.name}'s laptop` });
    const login = await answer(
      loginAction({
        request: new Request("http://localhost/login", {
          method: "POST",
          body: formOf({ login: member.zoe!.username, password: TEST_PASSWORD }),
        }),
        params: {},
        context,
      }),
    );
    expect(login.headers.get("location")).toBe("/login/undo-delete");
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const page = await answer(
      undoLoader({
        request: new Request("http://localhost/login/undo-delete", { headers: { cookie } }),
        params: {},
        context,
      }),
    );
    expect(await page.json()).toEqual({ dueOn: expect.any(String) });
    const kept = await answer(
      undoAction({
        request: new Request("http://localhost/login/undo-delete", {
          method: "POST",
          headers: { cookie },
          body: formOf({ intent: "keep" }),
        }),
        params: {},
        context,
      }),
    );
    // Zoe has a passkey: the sign-in goes on to her second factor.
    expect(kept.headers.get("location")).toBe("/login/factor");
    const zoe = await readMember("zoe");
    expect([zoe.deletionRequestedAt, zoe.deletionDueAt]).toEqual([null, null]);
    const [undone] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "account.delete-undone"), eq(auditLog.entityId, zoe.id)));
    expect(undone).toBeDefined();
  });

  it("erases after the grace period: no text column holds the member's e-mail, name or addresses; payments keep amounts and dates", async () => {
    // Without her passkey, her password confirms the deletion again.
    await database.db.delete(userFactors).where(eq(userFactors.userId, member.zoe!.id));
    const deleted = await postProfile(member.zoe!.id, { intent: "delete-account", password: TEST_PASSWORD });
    expect(deleted.status).toBe(302);
    expect(await columnsHolding(database, wordsOf(ZOE))).not.toEqual([]);
    await database.db
      .update(users)
      .set({ deletionDueAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, member.zoe!.id));
    await erasureSweepJob.run(services);

    expect(await columnsHolding(database, wordsOf(ZOE))).toEqual([]);
    // Yves, not erased, is all still there.
    expect(await columnsHolding(database, [YVES.respondentAddress])).toContain("public.respondents.address");
    const zoe = await readMember("zoe");
    expect(zoe.erasedAt).not.toBeNull();
    expect(zoe.username).toMatch(/^erased-[0-9a-f]{18}$/);
    const [payment] = await database.db.select().from(payments).where(eq(payments.userId, zoe.id));
    expect(payment).toMatchObject({
      amountCents: 2500,
      createdAt: new Date("2026-01-15T10:00:00Z"),
      email: zoe.username,
    });
    const [erased] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "account.erased"), eq(auditLog.entityId, zoe.id)));
    expect(erased!.data).toEqual({ reason: "grace-ended" });
  });

  it("refuses the login of an erased account and cannot undo it", async () => {
    const login = await answer(
      loginAction({
        request: new Request("http://localhost/login", {
          method: "POST",
          body: formOf({ login: member.zoe!.email, password: TEST_PASSWORD }),
        }),
        params: {},
        context,
      }),
    );
    expect(login.status).toBe(400);
    expect(await undoDeletion(services, member.zoe!.id, null)).toBe(false);
  });

  it("lets an admin erase a member on request through the same path: audited, the member e-mailed", async () => {
    const send = vi.spyOn(services.providers.mail, "send");
    const admin = (await loadViewer(database.db, (await createSession(database.db, adminId)).id))!;
    expect(await eraseOnRequest(services, admin, member.yves!.id)).toBe("erased");
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ to: member.yves!.email, template: "account-erased" }));
    send.mockRestore();
    const actions = await database.db
      .select({ action: auditLog.action, actor: auditLog.actorUserId })
      .from(auditLog)
      .where(eq(auditLog.entityId, member.yves!.id));
    expect(actions).toEqual(
      expect.arrayContaining([
        { action: "account.delete-requested", actor: adminId },
        { action: "account.erase-requested", actor: adminId },
        { action: "account.erased", actor: adminId },
      ]),
    );
    expect(await columnsHolding(database, wordsOf(YVES))).toEqual([]);
    const [outbox] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, member.yves!.email));
    expect(outbox).toBeUndefined();
    await expect(eraseOnRequest(services, admin, member.yves!.id)).rejects.toMatchObject({ status: 409 });
  });
});
