import type { AppLoadContext } from "@remix-run/node";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { action as adminAction } from "~/routes/admin";
import { action as loginAction } from "~/routes/login._index";
import { loader as memberLoader } from "~/routes/members.$userId";
import { siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession } from "../helpers/users";

type Route = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;

/** The audit log: who did a thing, whom they represented, and the address the request came from. */
describe.each(drivers)("the audit log (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  const ids: Record<string, string> = {};
  let adminCookie = "";

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database);
    for (const u of await database.db.select().from(users)) ids[u.username] = u.id;
    // The session was opened from 203.0.113.7 (tests/helpers/users.ts).
    adminCookie = await siteCookies(context.app!.config).session.serialize(
      (await createSession(database.db, ids.admin!)).id,
    );
  });
  afterAll(async () => {
    await database?.dispose();
  });

  /** A request from `ip`, as the server reads the client's address (app/server/http.server.ts). */
  async function call(route: Route, path: string, ip: string, form?: Record<string, string>, cookie = adminCookie) {
    try {
      return (await route({
        request: new Request(`http://localhost${path}`, {
          method: form ? "POST" : "GET",
          headers: {
            cookie,
            ...(form ? { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" } : {}),
          },
          ...(form ? { body: new URLSearchParams(form) } : {}),
        }),
        params: path.startsWith("/members/") ? { userId: path.split("/")[2]! } : {},
        context: { ...context, clientIp: ip },
      })) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  const latest = async (action: string) =>
    (
      await database.db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(desc(auditLog.id)).limit(1)
    )[0];

  it("keeps the address each request came from, not the one the session signed in from", async () => {
    await call(memberLoader, `/members/${ids.member}`, "198.51.100.20");
    expect(await latest("members.view")).toMatchObject({ actorUserId: ids.admin, ip: "198.51.100.20" });
    await call(memberLoader, `/members/${ids.member}`, "2001:db8::21");
    expect(await latest("members.view")).toMatchObject({ ip: "2001:db8::21" });
  });

  it("keeps both members and the address when an admin starts and stops representing one", async () => {
    const started = await call(adminAction, "/admin", "198.51.100.30", { intent: "start-agent", username: "member" });
    expect(started.status).toBe(302);
    expect(await latest("agent.start")).toMatchObject({
      actorUserId: ids.admin,
      agentUserId: ids.member,
      ip: "198.51.100.30",
    });
    const stopped = await call(adminAction, "/admin", "198.51.100.31", { intent: "stop-agent" });
    expect(stopped.status).toBe(302);
    expect(await latest("agent.stop")).toMatchObject({
      actorUserId: ids.admin,
      agentUserId: ids.member,
      ip: "198.51.100.31",
    });
  });

  it("keeps the address a login came from", async () => {
    const response = await call(
      loginAction,
      "/login",
      "198.51.100.40",
      { login: "creator", password: "memberhall-demo" },
      "",
    );
    expect(response.status).toBe(302);
    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "login"), eq(auditLog.actorUserId, ids.creator!)));
    expect(entry?.ip).toBe("198.51.100.40");
  });

  it("shows a member's trail with each member named by username and id, and the address", async () => {
    await call(adminAction, "/admin", "198.51.100.50", { intent: "start-agent", username: "member" });
    await call(adminAction, "/admin", "198.51.100.51", { intent: "stop-agent" });
    const { page } = await (await call(memberLoader, `/members/${ids.member}`, "198.51.100.52")).json();
    const stop = page.audit.find((a: { action: string }) => a.action === "agent.stop");
    expect(stop).toMatchObject({
      by: { id: ids.admin, username: "admin" },
      as: { id: ids.member, username: "member" },
      ip: "198.51.100.51",
    });
  });
});
