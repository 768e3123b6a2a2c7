import type { AppLoadContext } from "@remix-run/node";
import { and, desc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, sessions, users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { action as profileAction, loader as profileLoader } from "~/routes/profile.($page)";
import { loader as noticesLoader } from "~/routes/profile.notices";
import { action as securityAction, loader as securityLoader } from "~/routes/profile.security._index";
import { verifyEmail } from "~/services/accounts.server";
import { EMAIL_IN_USE, sessionCode } from "~/services/profile.server";
import { siteCookies } from "~/services/session.server";
import { verifyPassword } from "~/lib/password.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession, createUser, TEST_PASSWORD } from "../helpers/users";

/** /profile and its pages: the member's account, security and notices, on both drivers. */
describe.each(drivers)("the profile (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  async function member(overrides: Parameters<typeof createUser>[1] = {}) {
    const user = await createUser(database.db, overrides);
    const session = await createSession(database.db, user.id);
    return { user, session, cookie: await siteCookies(context.app!.config).session.serialize(session.id) };
  }

  async function answer(call: () => unknown): Promise<Response> {
    try {
      return (await call()) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  // /profile/security and /profile/notices are routes of their own (profile.security._index, profile.notices).
  const load = (page: string | undefined, cookie: string) =>
    answer(() =>
      (page === "security" ? securityLoader : page === "notices" ? noticesLoader : profileLoader)({
        request: new Request(`http://localhost/profile${page ? `/${page}` : ""}`, { headers: { cookie } }),
        params: page ? { page } : {},
        context,
      }),
    );
  const post = (page: string | undefined, cookie: string, fields: Record<string, string>) =>
    answer(() =>
      (page === "security" ? securityAction : profileAction)({
        request: new Request(`http://localhost/profile${page ? `/${page}` : ""}`, {
          method: "POST",
          body: new URLSearchParams(fields),
          headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" },
        }),
        params: page ? { page } : {},
        context,
      }),
    );
  const mailsTo = (to: string) =>
    database.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.id));

  it("shows each page to the member, sends a visitor to log in, and has no other page", async () => {
    const { cookie } = await member();
    for (const page of [undefined, "security", "notices"]) {
      expect((await load(page, cookie)).status, page ?? "account").toBe(200);
      const visitor = await load(page, "");
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toMatch(/^\/login/);
    }
    expect((await load("account", cookie)).status).toBe(404);
    // /profile/billing is a route of its own (profile.billing._index).
    expect((await load("billing", cookie)).status).toBe(404);
    expect((await load("secrets", cookie)).status).toBe(404);
  });

  it("changes the name; an empty one clears it", async () => {
    const { user, cookie } = await member({ name: "Old Name" });
    expect((await post(undefined, cookie, { intent: "name", name: "  Ada Example " })).status).toBe(302);
    expect((await database.db.select().from(users).where(eq(users.id, user.id)))[0]!.name).toBe("Ada Example");
    await post(undefined, cookie, { intent: "name", name: "" });
    expect((await database.db.select().from(users).where(eq(users.id, user.id)))[0]!.name).toBeNull();
  });

  it("changes the e-mail address only when the link mailed to the new one is opened, telling the old one", async () => {
    const { user, cookie } = await member();
    const next = `new-${user.username}@example.org`;
    expect((await post(undefined, cookie, { intent: "email", email: next })).status).toBe(302);
    expect((await database.db.select().from(users).where(eq(users.id, user.id)))[0]!.email).toBe(user.email);
    const [link] = await mailsTo(next);
    expect((await mailsTo(user.email))[0]?.subject).toBe("Your e-mail address is about to change");
    const token = /\/signup\/verify\?token=([\w-]+)/.exec(link!.text)![1]!;
    expect(await verifyEmail(context.app!, token)).toBe(true);
    expect((await database.db.select().from(users).where(eq(users.id, user.id)))[0]!.email).toBe(next);
    expect(await verifyEmail(context.app!, token)).toBe(false);
  });

  it("answers an address in use as sign-up does, and changes nothing", async () => {
    const { user, cookie } = await member();
    const response = await post(undefined, cookie, { intent: "email", email: "creator@memberhall.example" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { intent: string; result: { error: Record<string, string[]> } };
    expect(body.intent).toBe("email");
    expect(body.result.error.email).toEqual([EMAIL_IN_USE]);
    expect(await mailsTo("creator@memberhall.example")).toEqual([]);
    expect((await database.db.select().from(users).where(eq(users.id, user.id)))[0]!.email).toBe(user.email);
  });

  it("changes the password with the current one, ending the other sessions; refuses a wrong current one", async () => {
    const { user, session, cookie } = await member();
    const other = await createSession(database.db, user.id);
    const wrong = await post(undefined, cookie, {
      intent: "password",
      current: "not it",
      password: "violet orbit lantern 42",
      confirm: "violet orbit lantern 42",
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { result: { error: Record<string, string[]> } }).result.error.current).toEqual([
      "That is not your current password",
    ]);
    const differ = await post(undefined, cookie, {
      intent: "password",
      current: TEST_PASSWORD,
      password: "violet orbit lantern 42",
      confirm: "violet orbit lantern 43",
    });
    expect(differ.status).toBe(400);
    const done = await post(undefined, cookie, {
      intent: "password",
      current: TEST_PASSWORD,
      password: "violet orbit lantern 42",
      confirm: "violet orbit lantern 42",
    });
    expect(done.status).toBe(302);
    const [row] = await database.db.select().from(users).where(eq(users.id, user.id));
    expect(await verifyPassword("violet orbit lantern 42", row!.passwordHash!)).toBe(true);
    const live = await database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt)));
    expect(live.map((s) => s.id)).toEqual([session.id]);
    expect(live.map((s) => s.id)).not.toContain(other.id);
  });

  it("lists the sessions by device without their ids, and logs out one, or all the others", async () => {
    const { user, session, cookie } = await member();
    const phone = await createSession(database.db, user.id);
    await database.db
      .update(sessions)
      .set({ userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1", ip: "198.51.100.9" })
      .where(eq(sessions.id, phone.id));
    const page = await (await load("security", cookie)).json();
    expect(JSON.stringify(page)).not.toContain(phone.id);
    expect(page.sessions[0]).toMatchObject({ current: true, code: sessionCode(session.id) });
    expect(page.sessions).toContainEqual(expect.objectContaining({ device: "Safari on iOS", ip: "198.51.100.9" }));

    // Another member's session is no one's to end here.
    const stranger = await member();
    expect(
      (await post("security", cookie, { intent: "end-session", session: sessionCode(stranger.session.id) })).status,
    ).toBe(404);
    expect((await post("security", cookie, { intent: "end-session", session: "nope" })).status).toBe(400);

    expect((await post("security", cookie, { intent: "end-session", session: sessionCode(phone.id) })).status).toBe(
      302,
    );
    const [ended] = await database.db.select().from(sessions).where(eq(sessions.id, phone.id));
    expect(ended!.revokedAt).not.toBeNull();

    const laptop = await createSession(database.db, user.id);
    expect((await post("security", cookie, { intent: "end-other-sessions" })).status).toBe(302);
    const [gone] = await database.db.select().from(sessions).where(eq(sessions.id, laptop.id));
    expect(gone!.revokedAt).not.toBeNull();
    const [kept] = await database.db.select().from(sessions).where(eq(sessions.id, session.id));
    expect(kept!.revokedAt).toBeNull();
  });

  it("refuses a form it does not know with a 400, changing nothing", async () => {
    const { cookie } = await member();
    expect((await post(undefined, cookie, { intent: "promote-me" })).status).toBe(400);
    expect((await post(undefined, cookie, { intent: "email", email: "not an address" })).status).toBe(400);
  });
});
