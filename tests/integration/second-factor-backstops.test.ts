import { createHash } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { auditLog, mailOutbox, recoveryCodes, sessions } from "~/db/schema";
import { action as loginAction } from "~/routes/login._index";
import { action as factorAction, loader as factorLoader } from "~/routes/login.factor";
import {
  checkTypedCode,
  CODE_FAILURES,
  RECOVERY_FAILURES,
  USED_RECOVERY_CODE_MESSAGE,
} from "~/services/factors/codes.server";
import { newRecoveryCodes, rekeyRecoveryCodes } from "~/services/factors/recovery-codes.server";
import {
  addPasskey,
  authenticationOptions,
  passkeyAnswerSchema,
  registrationOptions,
  relyingParty,
} from "~/services/factors/passkeys.server";
import { finishLogin, PENDING_LOGIN_USED_MESSAGE, readPendingLogin } from "~/services/factors/sign-in.server";
import { siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { answer, formOf } from "../helpers/requests";
import { addAuthenticator, clearOfStepEnd } from "../helpers/totp";
import { createUser, TEST_PASSWORD } from "../helpers/users";
import { postedAnswer, SoftwareAuthenticator } from "../helpers/webauthn";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
/** Every way a code might have been hashed bare: as shown, without its dash, in capitals. */
const plainHashes = (code: string) => {
  const bare = code.replace("-", "");
  return [code, bare, code.toUpperCase(), bare.toUpperCase()].map(sha256);
};

/** Failures count in fixed windows: waits, near a window's end, for the next one. */
async function clearOfWindowEnd(windowSeconds: number) {
  const window = windowSeconds * 1000;
  const left = window - (Date.now() % window);
  if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe.each(drivers)("the second factor's backstops on %s", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let services: AppServices;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    // Every request here comes from one address: its per-minute limit is tested elsewhere.
    context = testContext(database, { AUTH_RATE_LIMIT: "1000" });
    services = context.app!;
  });

  afterAll(async () => {
    await database.dispose();
  });

  const codesOf = (userId: string) =>
    database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId)).orderBy(asc(recoveryCodes.id));
  const sessionsOf = (userId: string) => database.db.select().from(sessions).where(eq(sessions.userId, userId));
  const auditsOf = (userId: string) =>
    database.db.select().from(auditLog).where(eq(auditLog.actorUserId, userId)).orderBy(asc(auditLog.id));
  const mailTo = (email: string) =>
    database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(asc(mailOutbox.id));

  /** The login form's password step: answers the cookie of the sign-in waiting for its factor. */
  async function password(username: string): Promise<string> {
    const response = await answer(
      loginAction({
        request: new Request("http://localhost/login", {
          method: "POST",
          body: formOf({ login: username, password: TEST_PASSWORD }),
        }),
        params: {},
        context,
      }),
    );
    expect(response.headers.get("location")).toBe("/login/factor");
    return response.headers.get("set-cookie")!.split(";")[0]!;
  }

  const factor = (cookie: string, fields: Record<string, string>) =>
    answer(
      factorAction({
        request: new Request("http://localhost/login/factor", {
          method: "POST",
          headers: { cookie },
          body: formOf(fields),
        }),
        params: {},
        context,
      }),
    );

  const flashOf = async (response: Response) => {
    const cookies = response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!);
    return siteCookies(services.config).flash.parse(cookies.join("; "));
  };

  describe("recovery codes at rest", () => {
    it("stores no code as a plain SHA-256: a copy of the database without the server's key opens none", async () => {
      const user = await createUser(database.db);
      const codes = await newRecoveryCodes(services, user.id);
      const stored = (await codesOf(user.id)).map((row) => row.codeHash);
      expect(stored).toHaveLength(10);
      for (const plain of codes.flatMap(plainHashes)) {
        for (const hash of stored) expect(hash).not.toContain(plain);
      }
      // The same database read by a server with another secret: the codes are not found.
      const elsewhere = testContext(database).app!;
      await expect(checkTypedCode(elsewhere, user.id, codes[0]!)).rejects.toMatchObject({ kind: "invalid" });
      expect(await checkTypedCode(services, user.id, codes[0]!)).toEqual({ kind: "recovery", factorId: null });
    });

    it("takes a code stored the old way once, and stores the member's codes keyed from then on", async () => {
      const user = await createUser(database.db);
      const codes = await newRecoveryCodes(services, user.id);
      await database.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      const old = codes.map((code) => sha256(code.replace("-", "")));
      await database.db.insert(recoveryCodes).values(old.map((codeHash) => ({ userId: user.id, codeHash })));

      expect(await checkTypedCode(services, user.id, codes[0]!)).toEqual({ kind: "recovery", factorId: null });
      const rows = await codesOf(user.id);
      expect(rows).toHaveLength(10);
      expect(rows.filter((row) => old.includes(row.codeHash))).toEqual([]);
      for (const plain of codes.flatMap(plainHashes)) {
        for (const row of rows) expect(row.codeHash).not.toContain(plain);
      }
      expect(rows.filter((row) => row.usedAt !== null)).toHaveLength(1);
      await expect(checkTypedCode(services, user.id, codes[0]!)).rejects.toMatchObject({
        fieldErrors: { code: [USED_RECOVERY_CODE_MESSAGE] },
      });
      expect(await checkTypedCode(services, user.id, codes[1]!)).toEqual({ kind: "recovery", factorId: null });
    });

    it("rekeys the old codes no member typed since, which then work as before", async () => {
      const user = await createUser(database.db);
      const codes = await newRecoveryCodes(services, user.id);
      await database.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
      const old = codes.map((code) => sha256(code.replace("-", "")));
      await database.db.insert(recoveryCodes).values(old.map((codeHash) => ({ userId: user.id, codeHash })));

      expect(await rekeyRecoveryCodes(services)).toBeGreaterThanOrEqual(10);
      expect((await codesOf(user.id)).filter((row) => old.includes(row.codeHash))).toEqual([]);
      expect(await rekeyRecoveryCodes(services)).toBe(0);
      expect(await checkTypedCode(services, user.id, codes[2]!)).toEqual({ kind: "recovery", factorId: null });
    });
  });

  describe("a sign-in waiting for its factor", () => {
    it("opens at most one session: its cookie sent again after success is sent to log in again", async () => {
      const user = await createUser(database.db);
      const { app } = await addAuthenticator(services, user.id, user.username);
      const [recovery] = await newRecoveryCodes(services, user.id);
      const cookie = await password(user.username);

      await clearOfStepEnd();
      const done = await factor(cookie, { code: app.at(Date.now()) });
      expect(done.status).toBe(302);
      expect(done.headers.get("location")).toBe("/redirect-login-success");
      expect(await sessionsOf(user.id)).toHaveLength(1);

      const replayed = await factor(cookie, { code: recovery! });
      expect(replayed.status).toBe(302);
      expect(replayed.headers.get("location")).toBe("/login");
      expect(await flashOf(replayed)).toMatchObject({ kind: "warn", message: PENDING_LOGIN_USED_MESSAGE });
      expect(await sessionsOf(user.id)).toHaveLength(1);
      // Refused before the code was read: the recovery code is still the member's.
      expect((await codesOf(user.id)).every((row) => row.usedAt === null)).toBe(true);

      const page = await answer(
        factorLoader({
          request: new Request("http://localhost/login/factor", { headers: { cookie } }),
          params: {},
          context,
        }),
      );
      expect(page.headers.get("location")).toBe("/login");
    });

    it("opens one session when two requests finish it at once", async () => {
      const user = await createUser(database.db);
      const { factorId } = await addAuthenticator(services, user.id, user.username);
      const cookie = await password(user.username);
      const pending = (await readPendingLogin(
        new Request("http://localhost/", { headers: { cookie } }),
        services.config,
      ))!;
      const client = { ip: "203.0.113.7", userAgent: "test", devicePublicKey: null };
      const passed = { kind: "totp" as const, factorId, remember: false };
      const results = await Promise.allSettled([
        finishLogin(services, user.id, client, passed, pending.token),
        finishLogin(services, user.id, client, passed, pending.token),
      ]);
      expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect(await sessionsOf(user.id)).toHaveLength(1);
    });
  });

  describe("wrong codes after a right password", () => {
    it("audits each wrong code and the lock-out, e-mails the member once, and lets a recovery code or a passkey in meanwhile", async () => {
      const user = await createUser(database.db);
      const { app } = await addAuthenticator(services, user.id, user.username);
      const [recovery] = await newRecoveryCodes(services, user.id);
      const device = new SoftwareAuthenticator(relyingParty(services.config));
      const made = await registrationOptions(services, user.id);
      const registered = postedAnswer(made.challengeId, device.register(made.options));
      await addPasskey(services, user.id, passkeyAnswerSchema.parse(registered), "Phone");
      await clearOfWindowEnd(CODE_FAILURES.windowSeconds);

      const cookie = await password(user.username);
      const statuses: number[] = [];
      for (let i = 0; i < CODE_FAILURES.hits + 1; i++) {
        statuses.push((await factor(cookie, { code: app.wrongAt(Date.now()) })).status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
      // The app's right code waits out the lock-out too.
      await clearOfStepEnd();
      expect((await factor(cookie, { code: app.at(Date.now()) })).status).toBe(429);

      const audits = await auditsOf(user.id);
      const failed = { action: "login.factor.failed", entityId: user.id, ip: "203.0.113.7" };
      expect(audits.map((row) => row.action)).toEqual([
        "login.password",
        ...Array<string>(CODE_FAILURES.hits).fill("login.factor.failed"),
        "login.factor.locked",
        "login.factor.failed",
        "login.factor.failed",
      ]);
      expect(audits[1]).toMatchObject({ ...failed, data: { kind: "totp" } });
      expect(audits[CODE_FAILURES.hits + 1]).toMatchObject({
        action: "login.factor.locked",
        entityId: user.id,
        data: { kind: "totp", failures: CODE_FAILURES.hits },
      });
      expect(audits.at(-1)).toMatchObject({ ...failed, data: { kind: "totp", locked: true } });

      const told = (await mailTo(user.email)).filter((mail) => mail.template === "factor-locked");
      expect(told).toHaveLength(1);
      expect(told[0]!.subject).toBe("Someone who knows your password tried to sign in");
      expect(told[0]!.text).toContain("Someone who knows your password tried to sign in to your account");
      expect(told[0]!.text).toContain("change your password now");
      expect(told[0]!.text).toContain(`\n${services.config.baseUrl}/login/reset?token=`);

      // The member holds a recovery code: it gets in while the lock-out lasts.
      const byCode = await factor(cookie, { code: recovery! });
      expect(byCode.headers.get("location")).toBe("/redirect-login-success");
      expect(await sessionsOf(user.id)).toHaveLength(1);

      // And a passkey, at another sign-in still within the lock-out.
      const again = await password(user.username);
      expect((await factor(again, { code: app.wrongAt(Date.now()) })).status).toBe(429);
      const { options, challengeId } = await authenticationOptions(services, "factor", user.id);
      const byPasskey = await factor(again, {
        passkey: JSON.stringify(postedAnswer(challengeId, device.assert(options))),
      });
      expect(byPasskey.headers.get("location")).toBe("/redirect-login-success");
      expect(await sessionsOf(user.id)).toHaveLength(2);
      expect((await mailTo(user.email)).filter((mail) => mail.template === "factor-locked")).toHaveLength(1);
    });

    it("holds back wrong recovery codes from one address only, apart from the app's codes", async () => {
      const user = await createUser(database.db);
      await addAuthenticator(services, user.id, user.username);
      const [code] = await newRecoveryCodes(services, user.id);
      await clearOfWindowEnd(RECOVERY_FAILURES.windowSeconds);
      const from = (ip: string) => ({ use: "sign-in" as const, ip });

      for (let i = 0; i < RECOVERY_FAILURES.hits; i++) {
        await expect(
          checkTypedCode(services, user.id, "aaaaa-aaaaa", Date.now(), from("198.51.100.9")),
        ).rejects.toMatchObject({ kind: "invalid" });
      }
      await expect(checkTypedCode(services, user.id, code!, Date.now(), from("198.51.100.9"))).rejects.toMatchObject({
        kind: "too-many",
      });
      expect(await checkTypedCode(services, user.id, code!, Date.now(), from("203.0.113.99"))).toEqual({
        kind: "recovery",
        factorId: null,
      });
    });
  });
});
