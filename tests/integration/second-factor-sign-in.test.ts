import type { AppLoadContext } from "@remix-run/node";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { auditLog, mailOutbox, recoveryCodes, rememberedDevices, sessions, userFactors } from "~/db/schema";
import { logIn } from "~/services/auth.server";
import { WRONG_CODE_MESSAGE } from "~/services/factors/codes.server";
import { newRecoveryCodes } from "~/services/factors/recovery-codes.server";
import { addPasskey, passkeyAnswerSchema, registrationOptions, relyingParty } from "~/services/factors/passkeys.server";
import { resetFactors } from "~/services/factors/records.server";
import { finishLogin, forgetDevices } from "~/services/factors/sign-in.server";
import { STEP_UP_CODE } from "~/domain/second-factor-words";
import { passPostedFactor, requireStepUp } from "~/services/factors/step-up.server";
import { loadViewer, requireAdmin, requireApiAdmin, siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { addAuthenticator, clearOfStepEnd } from "../helpers/totp";
import { createSession, createUser, newDeviceKey, TEST_PASSWORD } from "../helpers/users";
import { postedAnswer, SoftwareAuthenticator } from "../helpers/webauthn";

const MINUTE = 60_000;
/** The request a sensitive action's form was posted with: the prompt posts back to it. */
const STEP_UP_REQUEST = new Request("http://localhost/admin?index", { method: "POST" });

describe.each(drivers)("signing in with a second factor on %s", (driver) => {
  let database: TestDatabase;
  let services: AppServices;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    services = testContext(database).app!;
  });

  afterAll(async () => {
    await database.dispose();
  });

  const client = (devicePublicKey: string | null = null) => ({ ip: "203.0.113.7", userAgent: "test", devicePublicKey });
  const sessionsOf = (userId: string) =>
    database.db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.createdAt));
  const sessionRow = async (id: string) => (await database.db.select().from(sessions).where(eq(sessions.id, id)))[0]!;
  const auditsOf = (userId: string) =>
    database.db.select().from(auditLog).where(eq(auditLog.actorUserId, userId)).orderBy(asc(auditLog.id));
  const mailTo = (email: string) => database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
  const password = (username: string) => ({ login: username, password: TEST_PASSWORD });

  const thrown = async (call: Promise<unknown>) => {
    try {
      await call;
    } catch (error) {
      return error as Response;
    }
    throw new Error("the call was not refused");
  };

  describe("sign-in", () => {
    it("opens a session at once for a member without a second factor", async () => {
      const user = await createUser(database.db);
      const result = await logIn(services, password(user.username), client());
      expect(result.kind).toBe("session");
      const rows = await sessionsOf(user.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.factorPassedAt).toBeNull();
    });

    it("opens no session after the password of a member with a second factor", async () => {
      const user = await createUser(database.db);
      await addAuthenticator(services, user.id, user.username);
      expect(await logIn(services, password(user.username), client())).toEqual({ kind: "factor", userId: user.id });
      expect(await sessionsOf(user.id)).toEqual([]);
      expect((await auditsOf(user.id)).map((row) => row.action)).toEqual(["login.password"]);
    });

    it("opens the session once the factor passed: marked passed, audited, and e-mailed", async () => {
      const user = await createUser(database.db);
      const { factorId } = await addAuthenticator(services, user.id, user.username);
      const { sessionId } = await finishLogin(
        services,
        user.id,
        client(),
        { kind: "totp", factorId, remember: false },
        null,
      );

      const session = await sessionRow(sessionId);
      expect(session.userId).toBe(user.id);
      expect(session.factorPassedAt!.getTime()).toBeGreaterThan(Date.now() - MINUTE);
      const audits = await auditsOf(user.id);
      expect(audits.map((row) => row.action)).toEqual(["factor.used", "login"]);
      expect(audits[0]!.data).toEqual({ kind: "totp", use: "sign-in" });
      expect((await mailTo(user.email)).map((mail) => mail.template)).toEqual(["factor-used"]);
      const [factor] = await database.db.select().from(userFactors).where(eq(userFactors.id, factorId));
      expect(factor!.lastUsedAt!.getTime()).toBeGreaterThan(Date.now() - MINUTE);
      expect(await database.db.select().from(rememberedDevices).where(eq(rememberedDevices.userId, user.id))).toEqual(
        [],
      );
    });

    it("skips the factor on a browser remembered by its cookie's secret, not by its public device key, until forgotten", async () => {
      const user = await createUser(database.db);
      const { factorId } = await addAuthenticator(services, user.id, user.username);
      const device = newDeviceKey().publicKey;
      const first = await finishLogin(
        services,
        user.id,
        client(device),
        { kind: "totp", factorId, remember: true },
        null,
      );
      expect(first.rememberToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const [remembered] = await database.db
        .select()
        .from(rememberedDevices)
        .where(eq(rememberedDevices.userId, user.id));
      expect(remembered).toMatchObject({ devicePublicKey: device, revokedAt: null });
      // Kept hashed: the table does not hold the secret the browser proves itself with.
      expect(JSON.stringify(remembered)).not.toContain(first.rememberToken);
      expect(remembered!.until.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

      // The device's public key is no proof: it travels in the clear in the state header.
      expect((await logIn(services, password(user.username), client(device))).kind).toBe("factor");
      expect((await logIn(services, password(user.username), client(), "x".repeat(43))).kind).toBe("factor");
      const again = await logIn(services, password(user.username), client(), first.rememberToken);
      expect(again.kind).toBe("session");
      const session = await sessionRow((again as { sessionId: string }).sessionId);
      expect(session.id).not.toBe(first.sessionId);
      expect(session.factorPassedAt?.getTime()).toBe(remembered!.createdAt.getTime());

      // Another member cannot use this browser's secret.
      const other = await createUser(database.db);
      await addAuthenticator(services, other.id, other.username);
      expect((await logIn(services, password(other.username), client(), first.rememberToken)).kind).toBe("factor");

      expect(await forgetDevices(database.db, user.id)).toBe(1);
      expect(await logIn(services, password(user.username), client(), first.rememberToken)).toEqual({
        kind: "factor",
        userId: user.id,
      });
      expect(await sessionsOf(user.id)).toHaveLength(2);
    });
  });

  describe("step-up before a sensitive action", () => {
    const form = (fields: Record<string, string>) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.append(name, value);
      return data;
    };
    const passedAt = (sessionId: string, at: Date) =>
      database.db.update(sessions).set({ factorPassedAt: at }).where(eq(sessions.id, sessionId));

    async function memberWithCode() {
      const user = await createUser(database.db);
      const { app } = await addAuthenticator(services, user.id, user.username);
      const session = await createSession(database.db, user.id);
      return { user, app, session, viewer: async () => (await loadViewer(database.db, session.id))! };
    }

    it("lets the action go on within ten minutes of the factor passing", async () => {
      const { session, viewer } = await memberWithCode();
      await passedAt(session.id, new Date(Date.now() - 9 * MINUTE));
      await expect(
        requireStepUp(services, await viewer(), "agent-mode", STEP_UP_REQUEST, form({ memberId: "m1" })),
      ).resolves.toBe(undefined);
    });

    it("asks for the factor again after ten minutes, carrying the form's fields back", async () => {
      const { session, viewer } = await memberWithCode();
      await passedAt(session.id, new Date(Date.now() - 11 * MINUTE));
      const response = await thrown(
        requireStepUp(services, await viewer(), "agent-mode", STEP_UP_REQUEST, form({ memberId: "m1", intent: "act" })),
      );
      expect(response.status).toBe(403);
      const body = (await response.json()) as { code: string; stepUp: { fields: [string, string][]; error: null } };
      expect(body.code).toBe("step_up_required");
      expect(body.stepUp).toMatchObject({
        action: "agent-mode",
        postTo: "/admin?index",
        fields: [
          ["memberId", "m1"],
          ["intent", "act"],
        ],
        error: null,
        methods: { code: true, passkey: false },
      });
    });

    it("passes with a right code posted with the form, and marks the session", async () => {
      const { user, app, session, viewer } = await memberWithCode();
      await clearOfStepEnd();
      await requireStepUp(
        services,
        await viewer(),
        "grant-credits",
        STEP_UP_REQUEST,
        form({ amount: "5", [STEP_UP_CODE]: app.at(Date.now()) }),
      );
      expect((await sessionRow(session.id)).factorPassedAt!.getTime()).toBeGreaterThan(Date.now() - MINUTE);
      const [used] = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "factor.used"), eq(auditLog.entityId, user.id)));
      expect(used!.data).toEqual({ kind: "totp", use: "step-up" });
    });

    it("refuses a wrong code with its message and leaves the session as it was", async () => {
      const { session, app, viewer } = await memberWithCode();
      const old = new Date(Date.now() - 30 * MINUTE);
      await passedAt(session.id, old);
      const response = await thrown(
        requireStepUp(
          services,
          await viewer(),
          "export",
          STEP_UP_REQUEST,
          form({ [STEP_UP_CODE]: app.wrongAt(Date.now()) }),
        ),
      );
      expect(response.status).toBe(403);
      const body = (await response.json()) as { error: string; code: string; stepUp: { error: string; fields: [] } };
      expect(body).toMatchObject({ error: WRONG_CODE_MESSAGE, code: "step_up_required" });
      expect(body.stepUp).toMatchObject({ error: WRONG_CODE_MESSAGE, fields: [] });
      expect((await sessionRow(session.id)).factorPassedAt?.getTime()).toBe(old.getTime());
    });
  });

  describe("the factor required of admins", () => {
    let strict: AppLoadContext;

    beforeAll(() => {
      strict = testContext(database, { MFA_REQUIRED_FOR: "admin" });
    });

    const cookieFor = (context: AppLoadContext, sessionId: string) =>
      siteCookies(context.app!.config).session.serialize(sessionId);
    const page = async (context: AppLoadContext, sessionId: string) =>
      new Request("http://localhost/admin/members?q=x", { headers: { cookie: await cookieFor(context, sessionId) } });
    const api = async (context: AppLoadContext, sessionId: string) =>
      new Request("http://localhost/api/admin/members", { headers: { cookie: await cookieFor(context, sessionId) } });

    it("sends an admin without a second factor to set one up", async () => {
      const admin = await createUser(database.db, { admin: true });
      const session = await createSession(database.db, admin.id);
      const refused = await thrown(requireAdmin(await page(strict, session.id), strict));
      expect(refused.status).toBe(302);
      expect(refused.headers.get("location")).toBe(
        `/profile/security?redirectTo=${encodeURIComponent("/admin/members?q=x")}`,
      );

      const apiRefused = await thrown(requireApiAdmin(await api(strict, session.id), strict));
      expect(apiRefused.status).toBe(403);
      expect(await apiRefused.json()).toMatchObject({ code: "factor_setup_required" });
    });

    it("sends an admin whose session has not passed the factor to pass it, then lets them in", async () => {
      const admin = await createUser(database.db, { admin: true });
      const [code] = await newRecoveryCodes(strict.app!, admin.id);
      await addAuthenticator(services, admin.id, admin.username);
      const session = await createSession(database.db, admin.id);

      const refused = await thrown(requireAdmin(await page(strict, session.id), strict));
      expect(refused.status).toBe(302);
      expect(refused.headers.get("location")).toMatch(/^\/profile\/security\/verify\?redirectTo=/);
      const apiRefused = await thrown(requireApiAdmin(await api(strict, session.id), strict));
      expect(apiRefused.status).toBe(403);
      expect(await apiRefused.json()).toMatchObject({ code: "factor_required" });

      const viewer = (await loadViewer(database.db, session.id))!;
      const posted = new FormData();
      posted.append(STEP_UP_CODE, code!);
      expect(await passPostedFactor(strict.app!, viewer, posted)).toBe(true);
      expect((await sessionRow(session.id)).factorPassedAt).not.toBeNull();

      expect((await requireAdmin(await page(strict, session.id), strict)).viewer.user.id).toBe(admin.id);
      expect((await requireApiAdmin(await api(strict, session.id), strict)).viewer.user.id).toBe(admin.id);
    });

    it("lets an admin without a factor in where none is required", async () => {
      const lax = testContext(database, { MFA_REQUIRED_FOR: "none" });
      const admin = await createUser(database.db, { admin: true });
      const session = await createSession(database.db, admin.id);
      expect((await requireAdmin(await page(lax, session.id), lax)).viewer.user.id).toBe(admin.id);
      expect((await requireApiAdmin(await api(lax, session.id), lax)).viewer.user.id).toBe(admin.id);
    });
  });

  describe("an admin's reset", () => {
    it("removes every factor, recovery code, remembered device and session of the member, audited and e-mailed", async () => {
      const admin = await createUser(database.db, { admin: true });
      const user = await createUser(database.db);
      const bystander = await createUser(database.db);
      const { factorId } = await addAuthenticator(services, user.id, user.username);
      await addAuthenticator(services, bystander.id, bystander.username);
      const device = new SoftwareAuthenticator(relyingParty(services.config));
      const { options, challengeId } = await registrationOptions(services, user.id);
      await addPasskey(
        services,
        user.id,
        passkeyAnswerSchema.parse(postedAnswer(challengeId, device.register(options))),
        "Phone",
      );
      await newRecoveryCodes(services, user.id);
      await finishLogin(
        services,
        user.id,
        client(newDeviceKey().publicKey),
        { kind: "totp", factorId, remember: true },
        null,
      );
      await createSession(database.db, user.id);
      const bystanderSession = await createSession(database.db, bystander.id);

      await resetFactors(services, { actorUserId: admin.id, agentUserId: null, ip: "203.0.113.7" }, user.id);

      expect(await database.db.select().from(userFactors).where(eq(userFactors.userId, user.id))).toEqual([]);
      expect(await database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, user.id))).toEqual([]);
      const devices = await database.db.select().from(rememberedDevices).where(eq(rememberedDevices.userId, user.id));
      expect(devices).toHaveLength(1);
      expect(devices[0]!.revokedAt).not.toBeNull();
      const ended = await sessionsOf(user.id);
      expect(ended).toHaveLength(2);
      expect(ended.every((row) => row.revokedAt !== null)).toBe(true);

      const [reset] = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "factor.reset"), eq(auditLog.entityId, user.id)));
      expect(reset).toMatchObject({ actorUserId: admin.id, entity: "user" });
      expect((await mailTo(user.email)).map((mail) => mail.template)).toContain("factor-reset");

      expect(await database.db.select().from(userFactors).where(eq(userFactors.userId, bystander.id))).toHaveLength(1);
      expect((await sessionRow(bystanderSession.id)).revokedAt).toBeNull();
    });
  });
});
