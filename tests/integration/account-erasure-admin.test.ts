import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import { auditLog, mailOutbox, users } from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { action as memberAction, loader as memberLoader } from "~/routes/members.$userId";
import { loader as deletionsLoader } from "~/routes/members.deletions";
import { markForDeletion, undoDeletion } from "~/services/member-data/deletion.server";
import { eraseOnRequest } from "~/services/member-data/erasure.server";
import { loadViewer, siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { columnsHolding, memberWithRecords, YVES, ZOE } from "../helpers/erasure";
import { answer, formOf } from "../helpers/requests";
import { createSession } from "../helpers/users";

describe.each(drivers)("admins and erasures (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let context: ReturnType<typeof testContext>;
  let adminId = "";
  let adminCookie = "";
  const member: Record<string, typeof users.$inferSelect> = {};

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    context = testContext(database);
    services = context.app!;
    adminId = (await database.db.select().from(users).where(eq(users.username, "admin")))[0]!.id;
    adminCookie = await siteCookies(services.config).session.serialize((await createSession(database.db, adminId)).id);
    member.zoe = await memberWithRecords(database, services, adminId, ZOE);
    member.yves = await memberWithRecords(database, services, adminId, YVES);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const asAdmin = (path: string, values?: Record<string, string>) =>
    new Request(`http://localhost${path}`, {
      method: values ? "POST" : "GET",
      headers: { cookie: adminCookie },
      body: values ? formOf(values) : undefined,
    });

  it("lists the accounts waiting for their erasure on /members/deletions and says when on the member's page", async () => {
    await markForDeletion(services, member.zoe!.id, { actorUserId: member.zoe!.id, agentUserId: null });
    const list = await answer(deletionsLoader({ request: asAdmin("/members/deletions"), params: {}, context }));
    const { deletions } = (await list.json()) as { deletions: { id: string; username: string }[] };
    expect(deletions).toEqual([{ id: member.zoe!.id, username: member.zoe!.username, dueOn: expect.any(String) }]);
    const path = `/members/${member.zoe!.id}`;
    const page = await answer(memberLoader({ request: asAdmin(path), params: { userId: member.zoe!.id }, context }));
    expect(((await page.json()) as { erasure: unknown }).erasure).toEqual({ erased: false, dueOn: expect.any(String) });
  });

  it("erases from the member's page only when the username is typed", async () => {
    const path = `/members/${member.zoe!.id}`;
    const params = { userId: member.zoe!.id };
    await answer(memberAction({ request: asAdmin(path, { intent: "erase", confirm: "someone" }), params, context }));
    expect((await database.db.select().from(users).where(eq(users.id, member.zoe!.id)))[0]!.erasedAt).toBeNull();
    const done = await answer(
      memberAction({ request: asAdmin(path, { intent: "erase", confirm: member.zoe!.username }), params, context }),
    );
    expect(done.status).toBe(302);
    const [zoe] = await database.db.select().from(users).where(eq(users.id, member.zoe!.id));
    expect(zoe!.erasedAt).not.toBeNull();
    const words = [member.zoe!.email, member.zoe!.username, ZOE.name, ZOE.address, ZOE.respondentAddress];
    expect(await columnsHolding(database, words)).toEqual([]);
    const page = await answer(memberLoader({ request: asAdmin(path), params, context }));
    expect(((await page.json()) as { erasure: unknown }).erasure).toEqual({ erased: true, dueOn: null });
    // No undo of an erasure.
    expect(await undoDeletion(services, member.zoe!.id, null)).toBe(false);
  });

  it("erases a member on request through the same path: billing closed, audited, the member e-mailed", async () => {
    const send = vi.spyOn(services.providers.mail, "send");
    const admin = (await loadViewer(database.db, (await createSession(database.db, adminId)).id))!;
    expect(await eraseOnRequest(services, admin, member.yves!.id)).toBe("erased");
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ to: member.yves!.email, template: "account-erased" }));
    send.mockRestore();
    const actions = await database.db
      .select({ action: auditLog.action, actor: auditLog.actorUserId, data: auditLog.data })
      .from(auditLog)
      .where(eq(auditLog.entityId, member.yves!.id));
    expect(actions).toEqual(
      expect.arrayContaining([
        { action: "account.delete-requested", actor: adminId, data: { dueAt: expect.any(String) } },
        { action: "account.erase-requested", actor: adminId, data: null },
        { action: "account.erased", actor: adminId, data: { reason: "on-request" } },
      ]),
    );
    const [yves] = await database.db.select().from(users).where(eq(users.id, member.yves!.id));
    expect(yves!.username).toMatch(/^erased-/);
    const words = [member.yves!.email, member.yves!.username, YVES.name, YVES.address, YVES.respondentAddress];
    expect(await columnsHolding(database, words)).toEqual([]);
    expect(await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, member.yves!.email))).toEqual([]);
    await expect(eraseOnRequest(services, admin, member.yves!.id)).rejects.toMatchObject({ status: 409 });
  });
});
