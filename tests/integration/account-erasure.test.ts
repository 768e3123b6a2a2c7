import { and, eq } from "drizzle-orm";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import {
  auditLog,
  billingCustomers,
  claims,
  mailings,
  memberArchives,
  notarizations,
  notices,
  payments,
  sandboxObjects,
  sessions,
  subscriptions,
  userFactors,
  users,
} from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { action as loginAction } from "~/routes/login._index";
import { action as undoAction, loader as undoLoader } from "~/routes/login.undo-delete";
import { action as profileAction, loader as profileLoader } from "~/routes/profile.delete";
import { ONLY_ADMIN, undoDeletion, WRONG_FACTOR } from "~/services/member-data/deletion.server";
import { erasureSweepJob } from "~/services/member-data/erasure.server";
import { makeArchive } from "~/services/member-data/archive.server";
import { utcDay } from "~/domain/member-archive";
import { loadViewer, siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { columnsHolding, filesHolding, memberWithRecords, YVES, ZOE, type Person } from "../helpers/erasure";
import { readPdf } from "../helpers/pdf";
import { answer, formOf } from "../helpers/requests";
import { createSession, createUser, TEST_PASSWORD } from "../helpers/users";

const DAY_MS = 86_400_000;

describe.each(drivers)("deleting and erasing an account (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let context: ReturnType<typeof testContext>;
  let adminId = "";
  const member: Record<string, typeof users.$inferSelect> = {};

  const cookieOf = async (userId: string) =>
    siteCookies(services.config).session.serialize((await createSession(database.db, userId)).id);

  const postProfile = async (userId: string, values: Record<string, string>) => {
    const request = new Request("http://localhost/profile/delete", {
      method: "POST",
      headers: { cookie: await cookieOf(userId) },
      body: formOf(values),
    });
    return answer(profileAction({ request, params: {}, context }));
  };

  const openProfile = async (userId: string) => {
    const request = new Request("http://localhost/profile/delete", { headers: { cookie: await cookieOf(userId) } });
    return answer(profileLoader({ request, params: {}, context }));
  };

  /** The one-time message a response carries to the next page. */
  const flashOf = async (response: Response) => {
    const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
    return siteCookies(services.config).flash.parse(cookies.join("; "));
  };

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
    member.zoe = await memberWithRecords(database, services, adminId, ZOE);
    member.yves = await memberWithRecords(database, services, adminId, YVES);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const notarizationsOf = (userId: string) =>
    database.db
      .select({ id: notarizations.id })
      .from(notarizations)
      .innerJoin(notices, eq(notices.id, notarizations.noticeId))
      .innerJoin(claims, eq(claims.id, notices.claimId))
      .where(eq(claims.claimantId, userId));

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
    // A session made any other way (a hand-off, a passkey) is no one's while the account is deleted.
    expect(await loadViewer(database.db, (await createSession(database.db, zoe.id)).id)).toBeNull();
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
    // Zoe has a passkey: the sign-in goes on to her second factor, which says the account is kept.
    expect(kept.headers.get("location")).toBe("/login/factor");
    expect(await flashOf(kept)).toMatchObject({
      kind: "success",
      message: expect.stringMatching(/^Your account is kept\./),
    });
    const zoe = await readMember("zoe");
    expect([zoe.deletionRequestedAt, zoe.deletionDueAt]).toEqual([null, null]);
    const [undone] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "account.delete-undone"), eq(auditLog.entityId, zoe.id)));
    expect(undone).toBeDefined();
  });

  it("erases after the grace period: no text column, stored document or file holds the member's e-mail, name or addresses; payments keep amounts and dates", async () => {
    // Without her passkey, her password confirms the deletion again.
    await database.db.delete(userFactors).where(eq(userFactors.userId, member.zoe!.id));
    const deleted = await postProfile(member.zoe!.id, { intent: "delete-account", password: TEST_PASSWORD });
    expect(deleted.status).toBe(302);
    // Her letter's addresses and her notarization are there before the erasure, and the
    // documents that hide them: the letter the mail house printed, the PDF at the notary, the
    // return receipt (base64), and her data archive (a ZIP under DATA_DIR).
    const [archive] = await database.db
      .insert(memberArchives)
      .values({ userId: member.zoe!.id, requestedOn: utcDay(new Date()) })
      .returning();
    await makeArchive(services, archive!.id);
    expect(await columnsHolding(database, wordsOf(ZOE))).toEqual(
      expect.arrayContaining([
        "public.mailings.from_address",
        "public.mailings.to_address",
        "public.mailings.return_receipt_pdf, decoded",
        "public.sandbox_objects.data, decoded",
      ]),
    );
    expect(await filesHolding(services.config.dataDir, wordsOf(ZOE))).toEqual([`archives/${archive!.id}.zip`]);
    // A document of another member's that names her (a witness's letter, say) stays, made again without her.
    const witness = await PDFDocument.create();
    const font = await witness.embedFont(StandardFonts.Helvetica);
    witness.addPage().drawText(`Witness: ${ZOE.name}, ${ZOE.address}. Signed: Bo Other`, { x: 72, y: 700, font });
    const witnessPdf = Buffer.from(await witness.save()).toString("base64");
    await database.db
      .insert(sandboxObjects)
      .values({ id: "ltr_sb_witness.pdf", type: "mail_pdf", data: { pdf: witnessPdf } });
    expect(await notarizationsOf(member.zoe!.id)).toHaveLength(1);
    await database.db
      .update(users)
      .set({ deletionDueAt: new Date(Date.now() - 1000) })
      .where(eq(users.id, member.zoe!.id));
    await erasureSweepJob.run(services);

    expect(await columnsHolding(database, wordsOf(ZOE))).toEqual([]);
    expect(await filesHolding(services.config.dataDir, wordsOf(ZOE))).toEqual([]);
    const [remade] = await database.db.select().from(sandboxObjects).where(eq(sandboxObjects.id, "ltr_sb_witness.pdf"));
    const { pages } = await readPdf(Buffer.from(remade!.data.pdf as string, "base64"));
    expect(pages).toEqual(["Witness: [erased], [erased]. Signed: Bo Other"]);
    expect(await database.db.select().from(mailings).where(eq(mailings.userId, member.zoe!.id))).toEqual([]);
    expect(await notarizationsOf(member.zoe!.id)).toEqual([]);
    // Yves, not erased, is all still there.
    expect(await columnsHolding(database, [YVES.respondentAddress, YVES.address])).toEqual(
      expect.arrayContaining([
        "public.respondents.address",
        "public.mailings.from_address",
        "public.mailings.to_address",
      ]),
    );
    // His documents too: his letter as printed, at the notary, and its return receipt.
    expect(await columnsHolding(database, [YVES.name, YVES.address])).toEqual(
      expect.arrayContaining(["public.mailings.return_receipt_pdf, decoded", "public.sandbox_objects.data, decoded"]),
    );
    expect(await notarizationsOf(member.yves!.id)).toHaveLength(1);
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

  it("opens the page to a member who has not finished setup, who deletes and keeps the account, told so on the way home", async () => {
    const newcomer = await createUser(database.db, { needsSetup: true, setupStep: "profile" });
    const page = await openProfile(newcomer.id);
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ confirm: null, onlyAdmin: false, inSetup: true });
    const deleted = await postProfile(newcomer.id, { intent: "delete-account", password: TEST_PASSWORD });
    expect(deleted.status).toBe(302);

    const login = await answer(
      loginAction({
        request: new Request("http://localhost/login", {
          method: "POST",
          body: formOf({ login: newcomer.username, password: TEST_PASSWORD }),
        }),
        params: {},
        context,
      }),
    );
    expect(login.headers.get("location")).toBe("/login/undo-delete");
    const kept = await answer(
      undoAction({
        request: new Request("http://localhost/login/undo-delete", {
          method: "POST",
          headers: { cookie: login.headers.get("set-cookie")!.split(";")[0]! },
          body: formOf({ intent: "keep" }),
        }),
        params: {},
        context,
      }),
    );
    expect(kept.headers.get("location")).toBe("/redirect-login-success");
    expect(await flashOf(kept)).toEqual({
      kind: "success",
      message: "Your account is kept. Any membership you had stays cancelled; you can join again whenever you like.",
    });
  });

  it("tells the only admin on the page that they cannot delete, and refuses them before any password", async () => {
    const page = await openProfile(adminId);
    expect(await page.json()).toMatchObject({ onlyAdmin: true, inSetup: false });
    const refused = await postProfile(adminId, { intent: "delete-account", password: "not it" });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: ONLY_ADMIN });
    // Yves is no admin: his page offers the form.
    expect(await (await openProfile(member.yves!.id)).json()).toMatchObject({ onlyAdmin: false });
  });

  it("refuses the only admin's deletion until another member is an admin; a disabled admin does not count", async () => {
    const demoPassword = { intent: "delete-account", password: "memberhall-demo" };
    const disabled = await createUser(database.db, { admin: true, disabledAt: new Date() });
    const refused = await postProfile(adminId, demoPassword);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: ONLY_ADMIN });
    const admin = (await database.db.select().from(users).where(eq(users.id, adminId)))[0]!;
    expect([admin.deletionRequestedAt, admin.admin]).toEqual([null, true]);
    expect(disabled.admin).toBe(true);

    await database.db.update(users).set({ admin: true }).where(eq(users.id, member.yves!.id));
    const deleted = await postProfile(adminId, demoPassword);
    expect(deleted.status).toBe(302);
    // Yves is now the only admin left, and is refused in turn (his password confirms it without his passkey).
    await database.db.delete(userFactors).where(eq(userFactors.userId, member.yves!.id));
    const yves = await postProfile(member.yves!.id, { intent: "delete-account", password: TEST_PASSWORD });
    expect(yves.status).toBe(409);
    expect(await yves.json()).toMatchObject({ error: ONLY_ADMIN });
  });
});
