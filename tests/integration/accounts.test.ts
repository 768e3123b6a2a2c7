import type { AppLoadContext } from "@remix-run/node";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import { auditLog, mailOutbox, oneTimeTokens, sessions, subscriptions, users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { action as loginAction } from "~/routes/login._index";
import { action as memberAction } from "~/routes/members.$userId";
import { action as rejoinAction } from "~/routes/re-join";
import { action as signupAction } from "~/routes/signup.($action)";
import { USERNAME_RULE } from "~/domain/account";
import { DomainError } from "~/domain/errors";
import { requestPasswordReset, resetPassword, signUp, verifyEmail } from "~/services/accounts.server";
import { startAgent, stopAgent } from "~/services/agent.server";
import { LOGIN_FAILED_MESSAGE, logIn } from "~/services/auth.server";
import { isCommonPassword } from "~/services/password.server";
import { loadViewer, siteCookies } from "~/services/session.server";
import { saveProfileStep } from "~/services/setup.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession, createUser, TEST_PASSWORD } from "../helpers/users";

const meta = { ip: "198.51.100.1", userAgent: "test" };

/** How a service call refused: the DomainError it threw, as plain data. */
async function refusal(call: Promise<unknown>) {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const { kind, status, message, fieldErrors, retryAfterSeconds } = error;
    return { kind, status, message, fieldErrors, retryAfterSeconds };
  }
  throw new Error("the call was not refused");
}

/** What a login attempt answered: its session, or how it was refused. */
const outcome = (call: Promise<{ kind: string }>) =>
  call.then(
    (result) => (result.kind === "session" ? "signed in" : result.kind),
    (error: unknown) => {
      if (!(error instanceof DomainError)) throw error;
      return { status: error.status, message: error.message, retryAfterSeconds: error.retryAfterSeconds };
    },
  );

function tokenFrom(text: string, path: string): string {
  const match = new RegExp(`${path.replace("/", "\\/")}\\?token=([\\w-]+)`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return match[1]!;
}

describe.each(drivers)("accounts on %s", (driver) => {
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

  const lastMailTo = async (to: string) =>
    (
      await database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.id)).limit(1)
    )[0]!;

  describe("sign-up", () => {
    it("creates a member who needs setup, signs them in and mails a confirmation link", async () => {
      const result = await signUp(
        services,
        { username: "alice", email: "alice@example.org", password: "a quiet garden path" },
        meta,
      );
      expect(result.sessionId).toEqual(expect.any(String));
      const [alice] = await database.db.select().from(users).where(eq(users.username, "alice"));
      expect(alice).toMatchObject({ needsSetup: true, emailVerifiedAt: null, setupStep: "profile" });
      expect(alice!.passwordHash).toMatch(/^scrypt\$/);
      const mail = await lastMailTo("alice@example.org");
      expect(mail.subject).toBe("Confirm your e-mail address");

      const token = tokenFrom(mail.text, "/signup/verify");
      expect(await verifyEmail(services, token)).toBe(true);
      expect(await verifyEmail(services, token)).toBe(false);
      const [verified] = await database.db.select().from(users).where(eq(users.username, "alice"));
      expect(verified!.emailVerifiedAt).not.toBeNull();
    });

    it("refuses a taken username or e-mail whatever their case, keeping nothing", async () => {
      const before = (await database.db.select().from(users)).length;
      const result = await refusal(
        signUp(
          services,
          { username: "alice", email: "ALICE@example.org".toLowerCase(), password: "another fine phrase" },
          meta,
        ),
      );
      expect(result).toMatchObject({ kind: "invalid", status: 400 });
      expect(result.fieldErrors).toEqual({
        username: ["That username is taken"],
        email: ["An account already uses that e-mail address; log in or reset your password"],
      });
      expect((await database.db.select().from(users)).length).toBe(before);
    });

    it("refuses one of the 3,000 most common passwords", async () => {
      expect(isCommonPassword("password")).toBe(true);
      expect(isCommonPassword("Baseball")).toBe(true);
      expect(isCommonPassword("a quiet garden path")).toBe(false);
      const result = await refusal(
        signUp(services, { username: "bob", email: "bob@example.org", password: "iloveyou" }, meta),
      );
      expect(result.status).toBe(400);
      expect(result.fieldErrors).toEqual({
        password: ["That password is one of the most common ones; choose another"],
      });
    });

    it("refuses a guessable password, naming why: repeated letters, the community's own name", async () => {
      for (const password of ["aaaaaaaa", "Memberhall Community", "memberhall"]) {
        const result = await refusal(signUp(services, { username: "dora", email: "dora@example.org", password }, meta));
        expect(result.status, password).toBe(400);
        expect(result.fieldErrors?.password?.[0], password).toMatch(/^That password is easy to guess\. \S/);
      }
      const [repeated] = (
        await refusal(signUp(services, { username: "dora", email: "dora@example.org", password: "aaaaaaaa" }, meta))
      ).fieldErrors!.password!;
      expect(repeated).toContain('Repeated characters like "aaa" are easy to guess.');
      expect(await database.db.select().from(users).where(eq(users.username, "dora"))).toEqual([]);
    });

    it("tells a weak password and a taken username together", async () => {
      const result = await refusal(
        signUp(services, { username: "alice", email: "new-alice@example.org", password: "iloveyou" }, meta),
      );
      expect(result.fieldErrors).toEqual({
        username: ["That username is taken"],
        password: ["That password is one of the most common ones; choose another"],
      });
    });

    it("the sign-up form checks every field at once: one message each, the password's strength included", async () => {
      const response = (await signupAction({
        request: new Request("http://localhost/signup", {
          method: "POST",
          body: new URLSearchParams({ username: "ab!", email: "", password: "iloveyou" }),
          headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" },
        }),
        params: {},
        context: { ...context, clientIp: "192.0.2.91" },
      })) as Response;
      expect(response.status).toBe(400);
      const { result } = (await response.json()) as { result: { error: Record<string, string[] | null> } };
      expect(result.error.username?.[0]).toBe(`Username: ${USERNAME_RULE}`);
      expect(result.error.email?.[0]).toBe("Enter your e-mail address");
      expect(result.error.acceptTerms?.[0]).toBe("Accept the Terms of Service and Privacy Policy to continue");
      expect(result.error.password).toEqual(["That password is one of the most common ones; choose another"]);
    });

    it("counts the member's own name and e-mail as words a guesser tries", async () => {
      const result = await refusal(
        signUp(services, { username: "quillonby", email: "quillonby@example.org", password: "quillonby1" }, meta),
      );
      expect(result.fieldErrors?.password?.[0]).toMatch(/^That password is easy to guess\./);
    });
  });

  describe("login", () => {
    /** Failures are counted in fixed windows of 15 minutes: a test that counts them runs inside one, whatever the clock says. */
    async function inOneWindow(run: () => Promise<void>) {
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2030-01-01T00:15:05Z"));
      try {
        await run();
      } finally {
        vi.useRealTimers();
      }
    }

    it("starts a new session on every login, by username or e-mail", async () => {
      const first = await logIn(services, { login: "member", password: "memberhall-demo" }, meta);
      const second = await logIn(services, { login: "MEMBER@memberhall.example", password: "memberhall-demo" }, meta);
      expect(first).toEqual({ kind: "session", sessionId: expect.any(String) });
      expect(first).not.toEqual(second);
    });

    it("gives one generic error for an unknown member and for a wrong password", async () => {
      const unknown = await outcome(logIn(services, { login: "nobody-here", password: "whatever" }, meta));
      const wrong = await outcome(logIn(services, { login: "member", password: "not the password" }, meta));
      expect(unknown).toEqual({ status: 400, message: LOGIN_FAILED_MESSAGE, retryAfterSeconds: undefined });
      expect(wrong).toEqual(unknown);
    });

    it("slows an account down from the address that keeps failing, not from the owner's", () =>
      inOneWindow(async () => {
        const target = await createUser(database.db);
        const attacker = { ip: "192.0.2.66", userAgent: "x" };
        for (let i = 0; i < 5; i += 1) {
          expect(await outcome(logIn(services, { login: target.username, password: "guess" }, attacker))).toMatchObject(
            {
              status: 400,
            },
          );
        }
        const blocked = await outcome(logIn(services, { login: target.username, password: TEST_PASSWORD }, attacker));
        expect(blocked).toMatchObject({ status: 429, retryAfterSeconds: 900 });
        const owner = await outcome(
          logIn(services, { login: target.username, password: TEST_PASSWORD }, { ip: "198.51.100.99", userAgent: "x" }),
        );
        expect(owner).toBe("signed in");
      }));

    it("answers a name that matches nobody exactly as it answers a real account, 429 included", () =>
      inOneWindow(async () => {
        const target = await createUser(database.db);
        const from = { ip: "192.0.2.67", userAgent: "x" };
        const answers = async (login: string) => {
          const seen = [];
          for (let i = 0; i < 6; i += 1) seen.push(await outcome(logIn(services, { login, password: "guess" }, from)));
          return seen;
        };
        const real = await answers(target.username);
        const ghost = await answers(`ghost-${target.username}`);
        expect(ghost).toEqual(real);
        expect(real.at(-1)).toMatchObject({ status: 429 });
      }));

    it("counts failures per account, by username and e-mail alike, and only from the failing address", () =>
      inOneWindow(async () => {
        const target = await createUser(database.db);
        const attacker = { ip: "192.0.2.68", userAgent: "x" };
        const tries = [target.username, target.username, target.username, target.email, target.email];
        for (const login of tries) {
          expect(await outcome(logIn(services, { login, password: "guess" }, attacker))).toMatchObject({ status: 400 });
        }
        for (const login of [target.username, target.email.toUpperCase()]) {
          expect(await outcome(logIn(services, { login, password: TEST_PASSWORD }, attacker))).toMatchObject({
            status: 429,
            retryAfterSeconds: 900,
          });
        }
        const elsewhere = { ip: "198.51.100.98", userAgent: "x" };
        expect(await outcome(logIn(services, { login: target.email, password: TEST_PASSWORD }, elsewhere))).toBe(
          "signed in",
        );
      }));

    it("answers the 11th login attempt in a minute from one address with 429", async () => {
      // All attempts fall in one minute whatever the wall clock says.
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date("2030-01-01T00:00:05Z"));
      try {
        const ipContext = { ...context, clientIp: "192.0.2.11" };
        const attempt = (i: number) =>
          loginAction({
            request: new Request("http://localhost/login", {
              method: "POST",
              body: new URLSearchParams({ login: `someone-${i}`, password: "wrong password" }),
            }),
            params: {},
            context: ipContext,
          }) as Promise<Response>;
        for (let i = 0; i < 10; i += 1) expect((await attempt(i)).status).toBe(400);
        const eleventh = await attempt(10);
        expect(eleventh.status).toBe(429);
        expect(Number(eleventh.headers.get("retry-after"))).toBeGreaterThan(0);
        const other = await loginAction({
          request: new Request("http://localhost/login", {
            method: "POST",
            body: new URLSearchParams({ login: "x", password: "y" }),
          }),
          params: {},
          context: { ...context, clientIp: "192.0.2.12" },
        });
        expect((other as Response).status).toBe(400);
      } finally {
        vi.useRealTimers();
      }
    });

    it("signs in through the login action with a session cookie and remembers the target", async () => {
      const response = (await loginAction({
        request: new Request("http://localhost/login", {
          method: "POST",
          body: new URLSearchParams({ login: "member", password: "memberhall-demo", redirectTo: "/members" }),
        }),
        params: {},
        context: { ...context, clientIp: "192.0.2.14" },
      })) as Response;
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/redirect-login-success");
      const cookies = response.headers.getSetCookie();
      const cookieHeader = cookies.map((c) => c.split(";")[0]).join("; ");
      const sessionId = await siteCookies(services.config).session.parse(cookieHeader);
      expect((await loadViewer(database.db, sessionId))?.user.username).toBe("member");
      expect(await siteCookies(services.config).afterLogin.parse(cookieHeader)).toBe("/members");
    });

    it("answers a malformed login body with field errors, not a 500", async () => {
      const response = (await loginAction({
        request: new Request("http://localhost/login", { method: "POST", body: new URLSearchParams({ login: "" }) }),
        params: {},
        context: { ...context, clientIp: "192.0.2.13" },
      })) as Response;
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(Object.keys(body.result.error).sort()).toEqual(["login", "password"]);
    });
  });

  describe("admin revocation", () => {
    const endSessions = async (actorId: string, userId: string) => {
      const cookie = await siteCookies(services.config).session.serialize(
        (await createSession(database.db, actorId)).id,
      );
      try {
        return (await memberAction({
          request: new Request(`http://localhost/members/${userId}`, {
            method: "POST",
            body: new URLSearchParams({ intent: "end-sessions" }),
            headers: { cookie },
          }),
          params: { userId },
          context,
        })) as Response;
      } catch (thrown) {
        return thrown as Response;
      }
    };

    it("ends every session of the member, audited, and only for an admin", async () => {
      const admin = await createUser(database.db, { admin: true });
      const member = await createUser(database.db);
      const open = await createSession(database.db, member.id);
      expect((await endSessions(member.id, admin.id)).status).toBe(403);
      expect(await loadViewer(database.db, open.id)).not.toBeNull();

      const response = await endSessions(admin.id, member.id);
      expect(response.status).toBe(302);
      expect(await loadViewer(database.db, open.id)).toBeNull();
      const [row] = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "sessions.revoke"), eq(auditLog.entityId, member.id)));
      expect(row).toMatchObject({ actorUserId: admin.id });
    });
  });

  describe("re-join", () => {
    const postRejoin = async (userId: string) => {
      const session = await createSession(database.db, userId);
      const cookie = await siteCookies(services.config).session.serialize(session.id);
      try {
        return (await rejoinAction({
          request: new Request("http://localhost/re-join", { method: "POST", headers: { cookie } }),
          params: {},
          context,
        })) as Response;
      } catch (thrown) {
        return thrown as Response;
      }
    };
    const stepOf = async (userId: string) => (await database.db.select().from(users).where(eq(users.id, userId)))[0]!;
    const subscribe = async (userId: string, status: "ACTIVE" | "CANCELED") =>
      database.db.insert(subscriptions).values({ userId, planId: "monthly", status, provider: "sandbox" });

    it("sends a lapsed member back through the membership step", async () => {
      const lapsed = await createUser(database.db, { countryCode: "US", name: "Lapsed Member" });
      await subscribe(lapsed.id, "CANCELED");
      const response = await postRejoin(lapsed.id);
      expect(response.headers.get("location")).toBe("/setup");
      expect(await stepOf(lapsed.id)).toMatchObject({ needsSetup: true, setupStep: "membership" });
    });

    it("cannot skip the details step of a member still in setup, nor reopen an active membership", async () => {
      const newcomer = await createUser(database.db, { needsSetup: true, setupStep: "profile" });
      expect((await postRejoin(newcomer.id)).headers.get("location")).toBe("/setup");
      expect(await stepOf(newcomer.id)).toMatchObject({ needsSetup: true, setupStep: "profile" });

      const active = await createUser(database.db, { countryCode: "US" });
      await subscribe(active.id, "ACTIVE");
      expect((await postRejoin(active.id)).headers.get("location")).toBe("/re-join");
      expect(await stepOf(active.id)).toMatchObject({ needsSetup: false });

      const donor = await createUser(database.db, { countryCode: "US" });
      expect((await postRejoin(donor.id)).headers.get("location")).toBe("/re-join");
      expect(await stepOf(donor.id)).toMatchObject({ needsSetup: false });
    });
  });

  describe("password reset", () => {
    it("mails a single-use link valid one hour; using it changes the password and ends other sessions", async () => {
      const user = await createUser(database.db);
      const other = await createSession(database.db, user.id);
      await requestPasswordReset(services, user.email);
      const token = tokenFrom((await lastMailTo(user.email)).text, "/login/reset");
      const [row] = await database.db.select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, user.id));
      const ttl = row!.expiresAt.getTime() - row!.createdAt.getTime();
      expect(ttl).toBeGreaterThan(3_590_000);
      expect(ttl).toBeLessThanOrEqual(3_600_000 + 1_000);

      await resetPassword(services, token, "a brand new phrase");
      expect(await refusal(resetPassword(services, token, "yet another phrase"))).toMatchObject({
        status: 400,
        message: "This link has expired or was already used. Ask for a new one.",
      });
      expect(await outcome(logIn(services, { login: user.username, password: "a brand new phrase" }, meta))).toBe(
        "signed in",
      );
      expect(await loadViewer(database.db, other.id)).toBeNull();
    });

    it("refuses a weak new password and leaves the link usable", async () => {
      const user = await createUser(database.db);
      await requestPasswordReset(services, user.email);
      const token = tokenFrom((await lastMailTo(user.email)).text, "/login/reset");
      expect(await refusal(resetPassword(services, token, "aaaaaaaaaa"))).toMatchObject({
        status: 400,
        fieldErrors: { password: [expect.stringMatching(/^That password is easy to guess\./)] },
      });
      await resetPassword(services, token, "a brand new phrase");
      expect(await outcome(logIn(services, { login: user.username, password: "a brand new phrase" }, meta))).toBe(
        "signed in",
      );
    });

    it("says nothing and sends nothing for an unknown address", async () => {
      const before = (await database.db.select().from(mailOutbox)).length;
      await requestPasswordReset(services, "nobody@example.org");
      expect((await database.db.select().from(mailOutbox)).length).toBe(before);
    });
  });

  describe("setup", () => {
    it("takes the profile, then moves on to the membership step", async () => {
      const user = await createUser(database.db, { needsSetup: true, setupStep: "profile" });
      const session = await createSession(database.db, user.id);
      const viewer = (await loadViewer(database.db, session.id))!;

      const unknownCountry = await refusal(saveProfileStep(services, viewer, { name: "Ada", country: "ZZ" }));
      expect(unknownCountry.status).toBe(400);
      expect(unknownCountry.fieldErrors).toEqual({ country: ["Choose your country from the list"] });
      expect(await saveProfileStep(services, viewer, { name: "Ada", country: "GB" })).toEqual({ next: "membership" });

      const [done] = await database.db.select().from(users).where(eq(users.id, user.id));
      expect(done).toMatchObject({ needsSetup: true, setupStep: "membership", name: "Ada", countryCode: "GB" });
    });
  });

  describe("the viewer", () => {
    it("carries the user's newest subscription with what its plan grants, or none", async () => {
      const user = await createUser(database.db);
      const session = await createSession(database.db, user.id);
      const none = (await loadViewer(database.db, session.id))!;
      expect(none.subscription).toBeNull();
      expect(none.member.nolCreator).toBe(false);

      const day = 86_400_000;
      await database.db.insert(subscriptions).values([
        {
          userId: user.id,
          planId: "supporter",
          status: "CANCELED",
          provider: "sandbox",
          createdAt: new Date(Date.now() - 2 * day),
        },
        {
          userId: user.id,
          planId: "monthly",
          status: "ACTIVE",
          provider: "sandbox",
          createdAt: new Date(Date.now() - day),
        },
      ]);
      const viewer = (await loadViewer(database.db, session.id))!;
      expect(viewer.subscription).toMatchObject({
        userId: user.id,
        planId: "monthly",
        status: "ACTIVE",
        features: ["nolCreator"],
      });
      expect(viewer.member.nolCreator).toBe(true);
    });

    it("while an admin represents a member, carries the member's subscription, not the admin's", async () => {
      const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
      const [member] = await database.db.select().from(users).where(eq(users.username, "member"));
      const session = await createSession(database.db, admin!.id);
      await startAgent(services, (await loadViewer(database.db, session.id))!, { username: "member" });
      const viewer = (await loadViewer(database.db, session.id))!;
      const [newest] = await database.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, member!.id))
        .orderBy(desc(subscriptions.createdAt))
        .limit(1);
      expect(newest).toBeDefined();
      expect(viewer.subscription).toMatchObject({ id: newest!.id, userId: member!.id });
      expect(viewer.user.id).toBe(admin!.id);
    });
  });

  describe("agent mode", () => {
    it("lets an admin act for a member, recording both ids, and stop", async () => {
      const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
      const [member] = await database.db.select().from(users).where(eq(users.username, "member"));
      const session = await createSession(database.db, admin!.id);
      let viewer = (await loadViewer(database.db, session.id))!;

      expect(await startAgent(services, viewer, { username: "member" })).toEqual({ username: "member" });
      viewer = (await loadViewer(database.db, session.id))!;
      expect(viewer.agent?.username).toBe("member");
      expect(viewer.member.id).toBe(member!.id);

      await saveProfileStep(services, viewer, { name: "Changed by admin", country: "US" });
      const [entry] = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "setup.profile"), eq(auditLog.entityId, member!.id)));
      expect(entry).toMatchObject({ actorUserId: admin!.id, agentUserId: member!.id });

      await stopAgent(services, viewer);
      viewer = (await loadViewer(database.db, session.id))!;
      expect(viewer.agent).toBeNull();
    });

    it("refuses agent mode to a non-admin", async () => {
      const [member] = await database.db.select().from(users).where(eq(users.username, "member"));
      const viewer = (await loadViewer(database.db, (await createSession(database.db, member!.id)).id))!;
      await expect(startAgent(services, viewer, { username: "creator" })).rejects.toMatchObject({
        kind: "invalid",
        message: "Only an admin can represent a member",
        fieldErrors: { username: ["Only an admin can represent a member"] },
      });
      const [row] = await database.db.select().from(sessions).where(eq(sessions.id, viewer.session.id));
      expect(row!.agentUserId).toBeNull();
    });
  });
});
