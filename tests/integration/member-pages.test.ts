import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkouts, couponDiscounts, subscriptions } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { loader as homeLoader } from "~/routes/_index";
import { loader as groupLoader } from "~/routes/community-group-pending";
import { loader as nol101Loader } from "~/routes/nol-101";
import { loader as postOfficeLoader } from "~/routes/post-office";
import { loader as rejoinLoader } from "~/routes/re-join";
import { loader as ssoLoader } from "~/routes/sso";
import { loader as userLoader } from "~/routes/user.($userId)";
import { siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession, createUser } from "../helpers/users";

/** The member pages that say where a member stands: home, group membership, re-join, and the learning site's pages. */
describe.each(drivers)("where a member stands (%s)", (driver) => {
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

  /** A member with setup done and a session cookie. */
  async function member(overrides: Parameters<typeof createUser>[1] = {}) {
    const user = await createUser(database.db, { needsSetup: false, countryCode: "US", ...overrides });
    const session = await createSession(database.db, user.id);
    return { user, cookie: await siteCookies(context.app!.config).session.serialize(session.id) };
  }

  type Loader = (args: LoaderFunctionArgs) => Promise<unknown>;
  const load = async (
    loader: Loader,
    url: string,
    cookie: string,
    on: AppLoadContext = context,
    params: Record<string, string> = {},
  ) => {
    try {
      return (await loader({
        request: new Request(`http://localhost${url}`, { headers: { cookie } }),
        params,
        context: on,
      })) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  };

  describe("/community-group-pending", () => {
    async function checkoutThroughGroup(userId: string, email: string, status: typeof checkouts.$inferInsert.status) {
      const [discount] = await database.db
        .select()
        .from(couponDiscounts)
        .where(eq(couponDiscounts.couponSlug, "welcome"));
      await database.db.insert(checkouts).values({
        userId,
        email,
        kind: "subscription",
        planId: "monthly",
        couponId: discount!.couponId,
        couponDiscountId: discount!.id,
        listAmountCents: 1000,
        amountCents: 900,
        provider: "sandbox",
        status,
      });
    }

    it("says pending only while the payment that joins the group is under way", async () => {
      const { user, cookie } = await member();
      const none = await (await load(groupLoader, "/community-group-pending", cookie)).json();
      expect(none.standing).toEqual({ state: "none" });

      await checkoutThroughGroup(user.id, user.email, "processing");
      const pending = await (await load(groupLoader, "/community-group-pending", cookie)).json();
      expect(pending.standing).toEqual({ state: "pending", group: "New members" });

      await database.db.update(checkouts).set({ status: "succeeded" }).where(eq(checkouts.userId, user.id));
      const joined = await (await load(groupLoader, "/community-group-pending", cookie)).json();
      expect(joined.standing).toEqual({ state: "joined", group: "New members" });
    });

    it("a failed payment joins no group", async () => {
      const { user, cookie } = await member();
      await checkoutThroughGroup(user.id, user.email, "failed");
      expect((await (await load(groupLoader, "/community-group-pending", cookie)).json()).standing).toEqual({
        state: "none",
      });
    });

    it("sends a visitor to log in", async () => {
      const response = await load(groupLoader, "/community-group-pending", "");
      expect(response.status).toBe(302);
    });
  });

  describe("/re-join", () => {
    it("tells a member with no subscription there is nothing to re-join, and offers it to a lapsed one", async () => {
      const { cookie } = await member();
      expect(await (await load(rejoinLoader, "/re-join", cookie)).json()).toMatchObject({
        standing: "no-subscription",
      });

      const lapsed = await member();
      await database.db.insert(subscriptions).values({
        userId: lapsed.user.id,
        planId: "monthly",
        status: "CANCELED",
        provider: "sandbox",
      });
      expect(await (await load(rejoinLoader, "/re-join", lapsed.cookie)).json()).toMatchObject({ standing: "lapsed" });
    });
  });

  describe("the learning site's pages when it is not set up", () => {
    it.each([
      ["/sso", ssoLoader, "Single sign-on is not set up"],
      ["/nol-101", nol101Loader, "NoL 101 is not set up"],
      ["/post-office", postOfficeLoader, "The post office is not set up"],
    ] as const)("%s answers a page that says so (404), not bare JSON", async (url, loader, title) => {
      const { cookie } = await member();
      const response = await load(loader, url, cookie);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ title });
    });

    it("redirects to the learning site once it is set up", async () => {
      const learning = testContext(database, {
        LRM_URL: "https://learn.example.org",
        NOL_101_URL: "https://learn.example.org/nol-101",
        POST_OFFICE_URL: "https://learn.example.org/post-office",
      });
      const session = await createSession(database.db, (await member()).user.id);
      const cookie = await siteCookies(learning.app!.config).session.serialize(session.id);
      const response = await load(nol101Loader, "/nol-101", cookie, learning);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("https://learn.example.org/nol-101");
    });
  });

  describe("/user/{user_id}", () => {
    it("shows another member the card (no e-mail), sends an admin to the record and a member to their profile", async () => {
      const { user: other } = await member({ name: "Private Name" });
      const { user: me, cookie } = await member();
      const card = await load(userLoader, `/user/${other.id}`, cookie, context, { userId: other.id });
      expect(card.status).toBe(200);
      const body = await card.json();
      expect(body).toEqual({ username: other.username, memberSince: other.createdAt.toISOString(), group: null });
      expect(JSON.stringify(body)).not.toContain(other.email);
      expect(JSON.stringify(body)).not.toContain("Private Name");

      const own = await load(userLoader, `/user/${me.id}`, cookie, context, { userId: me.id });
      expect(own.headers.get("location")).toBe("/profile");
      const { cookie: adminCookie } = await member({ admin: true });
      const admin = await load(userLoader, `/user/${other.id}`, adminCookie, context, { userId: other.id });
      expect(admin.headers.get("location")).toBe(`/members/${other.id}`);
      const missing = crypto.randomUUID();
      expect((await load(userLoader, `/user/${missing}`, cookie, context, { userId: missing })).status).toBe(404);
      expect((await load(userLoader, `/user/${other.id}`, "", context, { userId: other.id })).status).toBe(302);
    });
  });

  describe("the home page", () => {
    it("gives a creator their causes with each version's next step", async () => {
      const { cookie } = await member({ nolCreator: true });
      const { member: next } = await (await load(homeLoader, "/", cookie)).json();
      expect(next.causes.map((c: { name: string }) => c.name)).toContain("Traffic Stop");
      expect(next.creatorOffer).toBeNull();
      expect(next.membership).toBeNull();
    });

    it("tells a member who is not a creator which plans bring the NoL creator", async () => {
      const { cookie } = await member();
      const { member: next } = await (await load(homeLoader, "/", cookie)).json();
      expect(next.causes).toBeNull();
      expect(next.creatorOffer.plans.length).toBeGreaterThan(0);
    });

    it("gives a visitor and a member still in setup nothing of the kind", async () => {
      expect((await (await load(homeLoader, "/", "")).json()).member).toBeNull();
      const { cookie } = await member({ needsSetup: true });
      expect((await (await load(homeLoader, "/", cookie)).json()).member).toBeNull();
    });
  });
});
