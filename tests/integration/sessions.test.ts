import type { AppLoadContext } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "~/config/env.server";
import { loadConfig } from "~/config/config.server";
import { auditLog, sessions } from "~/db/schema";
import { action as profileAction } from "~/routes/profile.($page)";
import { action as securityAction } from "~/routes/profile.security._index";
import { loadViewer, requireApiViewer, requireViewer, siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession, createUser } from "../helpers/users";

const DAY = 86_400_000;

describe("session idle timeout settings", () => {
  it("defaults to 7 days and takes a whole number of days", () => {
    expect(loadConfig({ NODE_ENV: "test" }).sessionIdleDays).toBe(7);
    expect(loadConfig({ NODE_ENV: "test", SESSION_IDLE_DAYS: "2" }).sessionIdleDays).toBe(2);
  });

  it.each(["0", "-1", "1.5", "seven", "31"])("refuses SESSION_IDLE_DAYS=%s", (value) => {
    expect(() => parseEnv({ NODE_ENV: "test", SESSION_IDLE_DAYS: value })).toThrow(ConfigError);
  });
});

describe.each(drivers)("sessions on %s", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    context = testContext(database);
  });

  afterAll(async () => {
    await database.dispose();
  });

  const lastSeen = (sessionId: string, at: Date) =>
    database.db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, sessionId));

  const cookieFor = async (sessionId: string) =>
    siteCookies((context.app as { config: Parameters<typeof siteCookies>[0] }).config).session.serialize(sessionId);

  const thrown = async (call: Promise<unknown>) => {
    try {
      await call;
    } catch (error) {
      return error as Response;
    }
    throw new Error("the call was not refused");
  };

  describe("idle timeout", () => {
    it("refuses a session not seen for longer than the idle timeout", async () => {
      const user = await createUser(database.db);
      const idle = await createSession(database.db, user.id);
      await lastSeen(idle.id, new Date(Date.now() - 8 * DAY));
      expect(await loadViewer(database.db, idle.id)).toBeNull();

      const cookie = await cookieFor(idle.id);
      const page = await thrown(
        requireViewer(new Request("http://localhost/profile", { headers: { cookie } }), context),
      );
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toMatch(/^\/login/);
      const api = await thrown(
        requireApiViewer(new Request("http://localhost/api/profile", { headers: { cookie } }), context),
      );
      expect(api.status).toBe(401);
    });

    it("keeps a session seen within the idle timeout, and marks it seen at most once a minute", async () => {
      const user = await createUser(database.db);
      const active = await createSession(database.db, user.id);
      const sixDaysAgo = new Date(Date.now() - 6 * DAY);
      await lastSeen(active.id, sixDaysAgo);
      expect((await loadViewer(database.db, active.id))?.user.id).toBe(user.id);
      const [touched] = await database.db.select().from(sessions).where(eq(sessions.id, active.id));
      expect(touched!.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 60_000);

      const recent = new Date(Date.now() - 10_000);
      await lastSeen(active.id, recent);
      await loadViewer(database.db, active.id);
      const [kept] = await database.db.select().from(sessions).where(eq(sessions.id, active.id));
      expect(kept!.lastSeenAt.getTime()).toBe(recent.getTime());
    });

    it("follows SESSION_IDLE_DAYS", async () => {
      const user = await createUser(database.db);
      const session = await createSession(database.db, user.id);
      await lastSeen(session.id, new Date(Date.now() - 2 * DAY));
      const strict = testContext(database, { SESSION_IDLE_DAYS: "1" });
      const cookie = await cookieFor(session.id);
      const refused = await thrown(
        requireApiViewer(new Request("http://localhost/api/profile", { headers: { cookie } }), strict),
      );
      expect(refused.status).toBe(401);
      expect(await loadViewer(database.db, session.id)).not.toBeNull();
    });
  });

  describe("log out other sessions", () => {
    it("ends every other session of the member, keeps this one, and audits it", async () => {
      const user = await createUser(database.db);
      const stranger = await createUser(database.db);
      const current = await createSession(database.db, user.id);
      const other = await createSession(database.db, user.id);
      const otherState = await createSession(database.db, user.id, null, "state");
      const strangers = await createSession(database.db, stranger.id);

      const response = (await securityAction({
        request: new Request("http://localhost/profile/security", {
          method: "POST",
          body: new URLSearchParams({ intent: "end-other-sessions" }),
          headers: { cookie: await cookieFor(current.id) },
        }),
        params: {},
        context,
      })) as Response;
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/profile/security");

      expect(await loadViewer(database.db, current.id)).not.toBeNull();
      expect(await loadViewer(database.db, other.id)).toBeNull();
      expect(await loadViewer(database.db, otherState.id)).toBeNull();
      expect(await loadViewer(database.db, strangers.id)).not.toBeNull();
      const [row] = await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "sessions.revoke-others"), eq(auditLog.entityId, user.id)));
      expect(row?.actorUserId).toBe(user.id);
    });

    it("sends a visitor to the login page", async () => {
      const response = await thrown(
        Promise.resolve(
          profileAction({
            request: new Request("http://localhost/profile", {
              method: "POST",
              body: new URLSearchParams({ intent: "end-other-sessions" }),
            }),
            params: {},
            context,
          }),
        ),
      );
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toMatch(/^\/login/);
    });
  });
});
