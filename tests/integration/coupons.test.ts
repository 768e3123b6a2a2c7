import type { AppLoadContext } from "@remix-run/node";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, couponDiscounts, coupons, users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { couponDiscountSchema, couponPlansSchema, couponSchema, planSchema } from "~/domain/entities";
import { loader as couponLoader, action as couponPost } from "~/routes/api.coupon.$couponId";
import { action as saveDiscountCall, loader as saveDiscountGet } from "~/routes/api.coupon.discount";
import { loader as discountLoader, action as discountPost } from "~/routes/api.coupon.discount.$id";
import { loader as discountsLoader, action as discountsPost } from "~/routes/api.coupon.discounts";
import { loader as couponsLoader, action as couponsPost } from "~/routes/api.coupons";
import { loader as offerLoader, action as offerPost } from "~/routes/api.coupon_slug.discount.$slug";
import { loader as landingLoader } from "~/routes/c.($couponSlug)";
import { action as discountPageAction, loader as discountPageLoader } from "~/routes/coupon.discount.($discountId)";
import { action as discountsPageAction, loader as discountsPageLoader } from "~/routes/coupon.discounts";
import { ARCHIVED_COUPON, REDEEMED_TERMS, SLUG_TAKEN, VALID_COUPON_ONLY } from "~/services/coupon-changes.server";
import { loadViewer, sessionState, siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { signedRequest } from "../helpers/state";
import { createSession, newDeviceKey } from "../helpers/users";

type Who = "visitor" | "admin" | "member" | "newbie";
type Handler = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;

/** A loader's or action's answer, whether it returned or threw it. */
async function answer(run: unknown): Promise<Response> {
  try {
    const result = await run;
    if (result instanceof Response) return result;
    throw new Error("the route answered no Response");
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

const form = (values: Record<string, string | string[]>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) {
    for (const one of Array.isArray(value) ? value : [value]) data.append(name, one);
  }
  return data;
};

describe.each(drivers)("coupons on %s", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  const cookie: Partial<Record<Who, string>> = {};
  const device = newDeviceKey();
  let adminState: { stateString: string; stateHash: string };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database);
    for (const u of await database.db.select().from(users)) {
      if (!["admin", "member", "newbie"].includes(u.username)) continue;
      const session = await createSession(database.db, u.id);
      cookie[u.username as Who] = await siteCookies(context.app!.config).session.serialize(session.id);
    }
    const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
    const framed = await createSession(database.db, admin!.id, device.publicKey, "state");
    adminState = sessionState((await loadViewer(database.db, framed.id))!, context.app!.config);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const request = (path: string, who: Who, init: { method?: string; body?: unknown; form?: FormData } = {}) => {
    const headers = new Headers(cookie[who] ? { cookie: cookie[who]! } : {});
    let body: BodyInit | undefined;
    if (init.body !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.body);
    } else if (init.form) {
      body = init.form;
    }
    return new Request(`http://localhost${path}`, { method: init.method ?? (body ? "POST" : "GET"), headers, body });
  };
  const call = (handler: Handler, path: string, who: Who, init: Parameters<typeof request>[2] = {}, params = {}) =>
    answer(handler({ request: request(path, who, init), params, context }));
  const body = async (response: Response) => response.json() as Promise<Record<string, unknown>>;
  const discountCount = async () => (await database.db.select({ n: count() }).from(couponDiscounts))[0]!.n;
  const discountBySlug = async (slug: string) =>
    (await database.db.select().from(couponDiscounts).where(eq(couponDiscounts.couponSlug, slug)))[0];
  const postDiscount = (payload: unknown) => call(saveDiscountCall, "/api/coupon/discount", "admin", { body: payload });
  /** Posts a discount that must be refused: 400, its field errors, and no discount more or less. */
  const refused = async (payload: unknown) => {
    const before = await discountCount();
    const response = await postDiscount(payload);
    expect(response.status).toBe(400);
    const data = await body(response);
    expect(typeof data.error).toBe("string");
    expect(await discountCount()).toBe(before);
    return data.fieldErrors as Record<string, string[]>;
  };

  /** The five calls only admins make, each with a request that would work for one. */
  const adminCalls: [string, Handler, string, Record<string, string>, { body?: unknown }][] = [
    ["GET /api/coupons", couponsLoader, "/api/coupons", {}, {}],
    ["GET /api/coupon/discounts", discountsLoader, "/api/coupon/discounts", {}, {}],
    ["GET /api/coupon/discount/1", discountLoader, "/api/coupon/discount/1", { id: "1" }, {}],
    ["GET /api/coupon/WELCOME10", couponLoader, "/api/coupon/WELCOME10", { couponId: "WELCOME10" }, {}],
    [
      "POST /api/coupon/discount",
      saveDiscountCall,
      "/api/coupon/discount",
      {},
      { body: { coupon_slug: "never-made", coupon_id: "WELCOME10" } },
    ],
  ];

  describe("who may call", () => {
    it.each(adminCalls)("%s: 401 to a visitor, 403 to a member or one in setup, with a JSON error", async (...row) => {
      const [, handler, path, params, init] = row;
      for (const [who, status] of [
        ["visitor", 401],
        ["member", 403],
        ["newbie", 403],
      ] as const) {
        const response = await call(handler, path, who, init, params);
        expect(response.status, who).toBe(status);
        expect(typeof (await body(response)).error).toBe("string");
      }
      expect(await discountBySlug("never-made")).toBeUndefined();
    });

    it.each([
      ["/api/coupons", couponsPost, {}],
      ["/api/coupon/discounts", discountsPost, {}],
      ["/api/coupon/discount/1", discountPost, { id: "1" }],
      ["/api/coupon/WELCOME10", couponPost, { couponId: "WELCOME10" }],
      ["/api/coupon_slug/discount/welcome", offerPost, { slug: "welcome" }],
    ] as const)("%s only reads: a POST answers 405 { error: 'Use GET' }", async (path, handler, params) => {
      const response = await call(handler as Handler, path, "admin", { body: {} }, params);
      expect(response.status).toBe(405);
      expect(await body(response)).toEqual({ error: "Use GET" });
    });

    it("GET /api/coupon/discount answers 405 { error: 'Use POST' }", async () => {
      const response = await call(saveDiscountGet, "/api/coupon/discount", "admin");
      expect(response.status).toBe(405);
      expect(await body(response)).toEqual({ error: "Use POST" });
    });

    it("takes the admin's state headers as well as the cookie", async () => {
      const signed = (path: string, method = "GET") =>
        signedRequest(path, {
          state: adminState.stateString,
          hash: adminState.stateHash,
          devicePrivateKey: device.privateKey,
          config: context.app!.config,
          method,
        });
      const read = await answer(couponsLoader({ request: signed("/api/coupons"), params: {}, context }));
      expect(read.status).toBe(200);
      const post = signed("/api/coupon/discount", "POST");
      const headers = new Headers(post.headers);
      headers.set("content-type", "application/json");
      const write = await answer(
        saveDiscountCall({
          request: new Request(post.url, {
            method: "POST",
            headers,
            body: JSON.stringify({ coupon_slug: "framed-offer", coupon_id: "MEMBER20" }),
          }),
          params: {},
          context,
        }),
      );
      expect(write.status).toBe(201);
      expect(await discountBySlug("framed-offer")).toBeDefined();
    });
  });

  describe("the read calls' shapes (spec §3)", () => {
    it("GET /api/coupons: coupons, plans and each coupon's plans", async () => {
      const response = await call(couponsLoader, "/api/coupons", "admin");
      expect(response.status).toBe(200);
      const data = await body(response);
      const list = couponSchema.strict().array().parse(data.coupons);
      planSchema.strict().array().parse(data.plans);
      const couponPlans = couponPlansSchema.strict().array().parse(data.coupon_plans);
      expect(list.find((c) => c.coupon_id === "FRIEND5")).toEqual({
        coupon_id: "FRIEND5",
        name: "$5 off for three months",
        duration: "repeating",
        duration_in_months: 3,
        redeem_by: null,
        amount_off: 500,
        percent_off: null,
        valid: true,
        data: { name: "$5 off for three months", valid: true },
      });
      const launch = list.find((c) => c.coupon_id === "LAUNCH25")!;
      expect(launch).toMatchObject({ percent_off: 25, valid: false, data: { valid: false } });
      expect(launch.redeem_by).toBeLessThan(Date.now() / 1000);
      expect(couponPlans.find((c) => c.coupon_id === "MEMBER20")?.plans).toEqual(["monthly", "annual"]);
      expect(data.plans).toContainEqual({ id: "monthly", title: "Monthly membership" });
    });

    it("GET /api/coupon/discounts and /api/coupon/discount/{id}: discounts with their coupon and its plans", async () => {
      const all = await body(await call(discountsLoader, "/api/coupon/discounts", "admin"));
      const discounts = couponDiscountSchema.strict().array().parse(all.coupon_discounts);
      couponSchema.array().parse(all.coupons);
      planSchema.array().parse(all.plans);
      const welcome = discounts.find((d) => d.coupon_slug === "welcome")!;
      expect(welcome).toEqual({
        coupon_discount_id: welcome.coupon_discount_id,
        active: true,
        group_name: "New members",
        welcome_message: "Welcome! Your first payment is 10% off.",
        coupon_slug: "welcome",
        coupon_plans: [{ coupon_id: "WELCOME10", plans: ["monthly", "annual"] }],
        coupon_id: "WELCOME10",
        coupon_name: "Welcome 10% off",
        coupon_valid: true,
      });

      const id = String(welcome.coupon_discount_id);
      const one = await call(discountLoader, `/api/coupon/discount/${id}`, "admin", {}, { id });
      expect(one.status).toBe(200);
      const data = await body(one);
      expect(couponDiscountSchema.strict().parse(data.coupon_discount)).toEqual(welcome);
      expect(Object.keys(data).sort()).toEqual(["coupon_discount", "coupons", "plans"]);
    });

    it("GET /api/coupon/{coupon_id}: the coupon; an unknown one (or discount) is a JSON 404", async () => {
      const one = await call(couponLoader, "/api/coupon/WELCOME10", "admin", {}, { couponId: "WELCOME10" });
      expect(couponSchema.strict().parse((await body(one)).coupon)).toMatchObject({ percent_off: 10 });
      for (const [handler, params] of [
        [couponLoader, { couponId: "NOPE" }],
        [discountLoader, { id: "999999" }],
        [discountLoader, { id: "abc" }],
      ] as const) {
        const response = await call(handler, "/api/x", "admin", {}, params);
        expect(response.status).toBe(404);
        expect((await body(response)).error).toBe("This page could not be found");
      }
    });
  });

  describe("POST /api/coupon/discount", () => {
    it("creates a discount, then changes it by coupon_discount_id, each change audited", async () => {
      const created = await postDiscount({
        coupon_slug: "Spring-Friends",
        group_name: "Spring",
        welcome_message: "Hello",
        coupon_id: "FRIEND5",
      });
      expect(created.status).toBe(201);
      const first = await body(created);
      expect(first.update).toBe(false);
      const discount = couponDiscountSchema.strict().parse(first.coupon_discount);
      expect(discount).toMatchObject({
        coupon_slug: "spring-friends",
        active: true,
        coupon_name: "$5 off for three months",
        coupon_plans: [{ coupon_id: "FRIEND5", plans: ["monthly"] }],
      });

      const changed = await postDiscount({ ...discount, group_name: null, active: false, coupon_id: "MEMBER20" });
      expect(changed.status).toBe(200);
      const second = await body(changed);
      expect(second.update).toBe(true);
      expect(second.coupon_discount).toMatchObject({
        coupon_discount_id: discount.coupon_discount_id,
        group_name: null,
        active: false,
        coupon_id: "MEMBER20",
      });
      const audited = await database.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.entity, "coupon_discount"), eq(auditLog.entityId, String(discount.coupon_discount_id))));
      expect(audited.map((a) => a.action)).toEqual(["coupon_discount.create", "coupon_discount.update"]);
    });

    it.each([
      ["a slug with spaces", { coupon_slug: "two words", coupon_id: "WELCOME10" }, "coupon_slug"],
      ["no slug", { coupon_id: "WELCOME10" }, "coupon_slug"],
      ["no coupon", { coupon_slug: "no-coupon" }, "coupon_id"],
      ["active that is no boolean", { coupon_slug: "x", coupon_id: "WELCOME10", active: "yes" }, "active"],
      [
        "a group name of 101 characters",
        { coupon_slug: "x", coupon_id: "WELCOME10", group_name: "g".repeat(101) },
        "group_name",
      ],
      ["an unknown coupon", { coupon_slug: "ghost-coupon", coupon_id: "NOPE" }, "coupon_id"],
    ])("refuses %s with 400 and its field error, changing nothing", async (_label, payload, field) => {
      expect(Object.keys(await refused(payload))).toContain(field);
    });

    it("keeps slugs unique whatever their case", async () => {
      expect(await refused({ coupon_slug: "WELCOME", coupon_id: "MEMBER20" })).toEqual({ coupon_slug: [SLUG_TAKEN] });

      // A discount keeps its own slug when it changes.
      const welcome = (await discountBySlug("welcome"))!;
      const same = await postDiscount({
        coupon_discount_id: welcome.id,
        coupon_slug: "welcome",
        coupon_id: "WELCOME10",
        group_name: "New members",
      });
      expect(same.status).toBe(200);
    });

    it("gives a new discount only a valid coupon, while an existing one may take any (spec §5)", async () => {
      expect(await refused({ coupon_slug: "launch", coupon_id: "LAUNCH25" })).toEqual({
        coupon_id: [VALID_COUPON_ONLY],
      });

      const friends = (await discountBySlug("friends"))!;
      const kept = await postDiscount({
        coupon_discount_id: friends.id,
        coupon_slug: "friends",
        coupon_id: "LAUNCH25",
        active: false,
      });
      expect(kept.status).toBe(200);

      const unknown = await postDiscount({
        coupon_discount_id: 999_999,
        coupon_slug: "nowhere",
        coupon_id: "WELCOME10",
      });
      expect(unknown.status).toBe(404);
    });
  });

  describe("GET /api/coupon_slug/discount/{slug}, for visitors too", () => {
    const offer = (slug: string, who: Who, query = "") =>
      call(offerLoader, `/api/coupon_slug/discount/${slug}${query}`, who, {}, { slug });

    it("gives the discount and its plans priced before and after the coupon", async () => {
      const response = await offer("members-friends", "visitor");
      expect(response.status).toBe(200);
      expect(response.headers.get("Cache-Control")).toBe("public, max-age=60");
      const data = await body(response);
      expect(couponDiscountSchema.parse(data.discount)).toMatchObject({
        coupon_slug: "members-friends",
        coupon_id: "MEMBER20",
      });
      expect(data.discount).toMatchObject({ description: "20% off every payment" });
      expect(data.plans).toEqual([
        {
          id: "monthly",
          title: "Monthly membership",
          kind: "subscription",
          interval: "month",
          currency: "usd",
          list_amount: 2000,
          amount: 1600,
          later_amount: 1600,
          coupon_payments: null,
        },
        expect.objectContaining({ id: "annual", list_amount: 20000, amount: 16000 }),
      ]);

      const refreshed = await offer("members-friends", "member", "?refresh=1");
      expect(refreshed.status).toBe(200);
      expect(refreshed.headers.get("Cache-Control")).toBe("no-store");
    });

    it("answers 404 { error } for an unknown slug, an inactive discount, or an archived coupon", async () => {
      await database.db.insert(couponDiscounts).values([
        { couponSlug: "resting", couponId: "WELCOME10", active: false },
        { couponSlug: "launched", couponId: "LAUNCH25" },
      ]);
      for (const slug of ["no-such-offer", "resting", "launched", "../x"]) {
        const response = await offer(slug, "visitor");
        expect(response.status, slug).toBe(404);
        expect(await body(response)).toEqual({ error: "This offer is not available" });
      }
    });
  });

  describe("the pages", () => {
    it("/coupon/discounts: the login for a visitor, 403 for a member, the lists for an admin", async () => {
      const visitor = await call(discountsPageLoader, "/coupon/discounts", "visitor");
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("Location")).toBe("/login?redirectTo=%2Fcoupon%2Fdiscounts");
      expect((await call(discountsPageLoader, "/coupon/discounts", "member")).status).toBe(403);
      expect((await call(discountPageLoader, "/coupon/discount", "member")).status).toBe(403);

      const active = await body(await call(discountsPageLoader, "/coupon/discounts", "admin"));
      const slugs = (list: unknown) => (list as { slug: string; active: boolean }[]).map((d) => d.slug);
      expect(slugs(active.discounts)).toContain("welcome");
      expect(slugs(active.discounts)).not.toContain("resting");
      const inactive = await body(await call(discountsPageLoader, "/coupon/discounts?show=inactive", "admin"));
      expect(slugs(inactive.discounts)).toContain("resting");
      expect(slugs(inactive.discounts)).not.toContain("welcome");
      const all = await body(await call(discountsPageLoader, "/coupon/discounts?show=all", "admin"));
      expect(slugs(all.discounts)).toEqual(expect.arrayContaining(["welcome", "resting"]));
      expect(all.coupons).toContainEqual(
        expect.objectContaining({ id: "FRIEND5", terms: "$5.00 off each payment for 3 months", maxRedemptions: 100 }),
      );
      expect(all.couponsLink).toEqual(expect.any(String));
    });

    it("/coupon/discount offers valid coupons for a new discount, and every coupon for an existing one", async () => {
      const ids = (data: Record<string, unknown>) => (data.coupons as { coupon_id: string }[]).map((c) => c.coupon_id);
      const fresh = await body(await call(discountPageLoader, "/coupon/discount", "admin"));
      expect(ids(fresh)).not.toContain("LAUNCH25");
      expect(ids(fresh)).toContain("WELCOME10");
      const welcome = String((await discountBySlug("welcome"))!.id);
      const existing = await body(
        await call(discountPageLoader, `/coupon/discount/${welcome}`, "admin", {}, { discountId: welcome }),
      );
      expect(ids(existing)).toEqual(expect.arrayContaining(["LAUNCH25", "WELCOME10"]));
      for (const discountId of ["0", "abc", "999999"]) {
        const missing = await call(discountPageLoader, `/coupon/discount/${discountId}`, "admin", {}, { discountId });
        expect(missing.status, discountId).toBe(404);
      }
    });

    it("the discount form: field errors without a change, a save, then a delete", async () => {
      const before = await discountCount();
      const refused = await call(discountPageAction, "/coupon/discount", "admin", {
        form: form({ coupon_slug: "bad slug!", coupon_id: "" }),
      });
      expect(refused.status).toBe(400);
      const { result } = (await refused.json()) as { result: { error: Record<string, string[]> } };
      expect(Object.keys(result.error).sort()).toEqual(["coupon_id", "coupon_slug"]);
      expect(await discountCount()).toBe(before);

      const saved = await call(discountPageAction, "/coupon/discount", "admin", {
        form: form({ coupon_slug: "from-the-form", welcome_message: "Hi", active: "on", coupon_id: "WELCOME10" }),
      });
      expect(saved.status).toBe(302);
      const row = (await discountBySlug("from-the-form"))!;
      expect(row).toMatchObject({ active: true, welcomeMessage: "Hi", groupName: null });
      expect(saved.headers.get("Location")).toBe(`/coupon/discount/${row.id}`);

      const taken = await call(
        discountPageAction,
        `/coupon/discount/${row.id}`,
        "admin",
        { form: form({ coupon_slug: "welcome", coupon_id: "WELCOME10" }) },
        { discountId: String(row.id) },
      );
      expect(taken.status).toBe(400);

      const deleted = await call(
        discountPageAction,
        `/coupon/discount/${row.id}`,
        "admin",
        { form: form({ intent: "delete" }) },
        { discountId: String(row.id) },
      );
      expect(deleted.status).toBe(302);
      expect(await discountBySlug("from-the-form")).toBeUndefined();
    });

    it("a coupon: created from the form; once redeemed its terms never change, it is archived instead", async () => {
      const post = (values: Record<string, string | string[]>) =>
        call(discountsPageAction, "/coupon/discounts", "admin", { form: form({ intent: "save-coupon", ...values }) });
      const terms = { name: "Autumn", duration: "forever", percent_off: "15", plans: ["monthly", "annual"] };
      expect((await post({ coupon_id: "AUTUMN15", ...terms })).status).toBe(302);
      const again = await post({ coupon_id: "autumn15", ...terms });
      expect(again.status).toBe(400);

      // Not redeemed yet: its terms may still change.
      expect((await post({ editing: "1", coupon_id: "AUTUMN15", ...terms, percent_off: "12" })).status).toBe(302);
      await database.db.update(coupons).set({ timesRedeemed: 1 }).where(eq(coupons.id, "AUTUMN15"));

      const changed = await post({ editing: "1", coupon_id: "AUTUMN15", ...terms, percent_off: "30" });
      expect(changed.status).toBe(400);
      const { result } = (await changed.json()) as { result: { error: Record<string, string[]> } };
      expect(result.error[""]).toEqual([REDEEMED_TERMS]);
      const fewerPlans = await post({
        editing: "1",
        coupon_id: "AUTUMN15",
        ...terms,
        percent_off: "12",
        plans: "monthly",
      });
      expect(fewerPlans.status).toBe(400);
      const [kept] = await database.db.select().from(coupons).where(eq(coupons.id, "AUTUMN15"));
      expect(kept).toMatchObject({ percentOff: "12.00", valid: true });

      // Its name may change.
      const renamed = await post({
        editing: "1",
        coupon_id: "AUTUMN15",
        ...terms,
        percent_off: "12",
        name: "Autumn sale",
      });
      expect(renamed.status).toBe(302);

      const archived = await call(discountsPageAction, "/coupon/discounts", "admin", {
        form: form({ intent: "archive-coupon", coupon_id: "AUTUMN15" }),
      });
      expect(archived.status).toBe(302);
      const [row] = await database.db.select().from(coupons).where(eq(coupons.id, "AUTUMN15"));
      expect(row).toMatchObject({ name: "Autumn sale", valid: false, percentOff: "12.00" });
      const afterwards = await post({ editing: "1", coupon_id: "AUTUMN15", ...terms, percent_off: "12" });
      expect(afterwards.status).toBe(400);
      const reply = (await afterwards.json()) as { result: { error: Record<string, string[]> } };
      expect(reply.result.error[""]).toEqual([ARCHIVED_COUPON]);
      const actions = await database.db
        .select({ action: auditLog.action })
        .from(auditLog)
        .where(and(eq(auditLog.entity, "coupon"), eq(auditLog.entityId, "AUTUMN15")));
      expect(actions.map((a) => a.action)).toEqual([
        "coupon.create",
        "coupon.update",
        "coupon.update",
        "coupon.archive",
      ]);
    });

    it("the landing: the offer for a visitor, kept in the cookie; none for a member with a membership; 404 otherwise", async () => {
      const visitor = await call(landingLoader, "/c/members-friends", "visitor", {}, { couponSlug: "members-friends" });
      expect(visitor.status).toBe(200);
      const data = (await visitor.json()) as { offer: { plans: { amount: number }[] }; subscribed: boolean };
      expect(data.subscribed).toBe(false);
      expect(data.offer.plans[0]!.amount).toBe(1600);
      expect(await siteCookies(context.app!.config).coupon.parse(visitor.headers.get("Set-Cookie"))).toBe(
        "members-friends",
      );

      const member = await call(landingLoader, "/c/members-friends", "member", {}, { couponSlug: "members-friends" });
      expect(await member.json()).toEqual({ offer: null, subscribed: true });

      const unknown = await call(landingLoader, "/c/no-such-offer", "visitor", {}, { couponSlug: "no-such-offer" });
      expect(unknown.status).toBe(404);
    });
  });
});
