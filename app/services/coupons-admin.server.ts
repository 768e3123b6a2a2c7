import { json, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { asc, count, desc, eq, max, sql, type SQL } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { couponDiscounts, couponRedemptions, coupons } from "~/db/schema";
import { invariant } from "~/domain/errors";
import { withApiErrors } from "~/lib/http.server";
import { couponJson, couponTerms, discountJson, planIdsByCoupon, planJson, planRows } from "./coupons.server";
import { requireApiAdmin, withState } from "./session.server";

/**
 * What admins read of coupons: the page /coupon/discounts and the API calls of spec §7 that
 * need an admin. What they change is in coupon-changes.server.ts.
 */

export const DISCOUNT_FILTERS = ["active", "inactive", "all"] as const;

/** /coupon/discounts?show=active|inactive|all[&coupon={id}]. */
export const discountsQuerySchema = z.object({
  show: z.enum(DISCOUNT_FILTERS).catch("active"),
  coupon: z.string().max(64).optional().catch(undefined),
});
export type DiscountFilter = (typeof DISCOUNT_FILTERS)[number];

const FILTERS: Record<DiscountFilter, SQL | undefined> = {
  active: eq(couponDiscounts.active, true),
  inactive: eq(couponDiscounts.active, false),
  all: undefined,
};

async function discountRows(db: Database, where?: SQL) {
  return db
    .select({ discount: couponDiscounts, coupon: coupons })
    .from(couponDiscounts)
    .innerJoin(coupons, eq(coupons.id, couponDiscounts.couponId))
    .where(where)
    .orderBy(sql`lower(${couponDiscounts.couponSlug})`);
}

/** Every coupon: the valid ones first, the newest first. */
function couponRows(db: Database) {
  return db.select().from(coupons).orderBy(desc(coupons.valid), desc(coupons.createdAt), asc(coupons.id));
}

/** How often each discount (or coupon) was redeemed, and when last, from the redemptions. */
async function redemptionStats(db: Database, by: "discount" | "coupon") {
  const key = by === "discount" ? couponRedemptions.couponDiscountId : couponRedemptions.couponId;
  const rows = await db
    .select({ key, times: count(), last: max(couponRedemptions.redeemedAt) })
    .from(couponRedemptions)
    .groupBy(key);
  return new Map(rows.map((row) => [String(row.key), { times: row.times, last: row.last }]));
}

const later = (a: Date | null | undefined, b: Date | null | undefined) => (a && b ? (a > b ? a : b) : (a ?? b ?? null));

/** /coupon/discounts: the discounts the filter shows, every coupon, the plans, and the provider's coupons. */
export async function couponAdminPage(services: AppServices, filter: DiscountFilter) {
  const { db } = services;
  const [discounts, couponList, plans, planIds, byDiscount, byCoupon] = await Promise.all([
    discountRows(db, FILTERS[filter]),
    couponRows(db),
    planRows(db),
    planIdsByCoupon(db),
    redemptionStats(db, "discount"),
    redemptionStats(db, "coupon"),
  ]);
  const titleOf = new Map(plans.map((plan) => [plan.id, plan.title]));
  const titles = (couponId: string) => (planIds.get(couponId) ?? []).map((id) => titleOf.get(id) ?? id);
  return {
    discounts: discounts.map(({ discount, coupon }) => {
      const stats = byDiscount.get(String(discount.id));
      return {
        id: discount.id,
        slug: discount.couponSlug,
        groupName: discount.groupName,
        active: discount.active,
        couponId: coupon.id,
        couponName: coupon.name,
        couponTerms: couponTerms(coupon),
        couponValid: coupon.valid,
        plans: titles(coupon.id),
        redemptions: stats?.times ?? 0,
        lastRedeemedAt: stats?.last?.toISOString() ?? null,
      };
    }),
    coupons: couponList.map((coupon) => {
      const stats = byCoupon.get(coupon.id);
      return {
        id: coupon.id,
        name: coupon.name,
        terms: couponTerms(coupon),
        duration: coupon.duration,
        durationInMonths: coupon.durationInMonths,
        amountOff: coupon.amountOff,
        percentOff: coupon.percentOff === null ? null : Number(coupon.percentOff),
        currency: coupon.currency,
        redeemBy: coupon.redeemBy?.toISOString() ?? null,
        maxRedemptions: coupon.maxRedemptions,
        timesRedeemed: Math.max(coupon.timesRedeemed, stats?.times ?? 0),
        lastRedeemedAt: later(coupon.lastRedeemedAt, stats?.last)?.toISOString() ?? null,
        valid: coupon.valid,
        planIds: planIds.get(coupon.id) ?? [],
        plans: titles(coupon.id),
      };
    }),
    plans: plans.map((plan) => ({ ...planJson(plan), currency: plan.currency, active: plan.active })),
    // A provider without a coupons page of its own (the sandbox) keeps them in this page's list.
    couponsLink: services.providers.payments.couponsLink || "/coupon/discounts#coupons",
  };
}

/** Every coupon and plan as the API shows them. */
async function couponsAndPlans(db: Database) {
  const [couponList, plans] = await Promise.all([couponRows(db), planRows(db)]);
  return { coupons: couponList.map(couponJson), plans: plans.map(planJson) };
}

/** GET /api/coupons: coupons, plans, and which plans each coupon is for. */
export async function couponsApi(db: Database) {
  const [list, planIds] = await Promise.all([couponsAndPlans(db), planIdsByCoupon(db)]);
  return {
    ...list,
    coupon_plans: list.coupons.map((coupon) => ({
      coupon_id: coupon.coupon_id,
      plans: planIds.get(coupon.coupon_id) ?? [],
    })),
  };
}

/** GET /api/coupon/{coupon_id}. */
export async function couponApi(db: Database, couponId: string) {
  const [coupon] = await db.select().from(coupons).where(eq(coupons.id, couponId));
  invariant(coupon);
  return { coupon: couponJson(coupon) };
}

/** GET /api/coupon/discounts: every discount, with the coupons and plans to read them by. */
export async function discountsApi(db: Database) {
  const [rows, list, planIds] = await Promise.all([discountRows(db), couponsAndPlans(db), planIdsByCoupon(db)]);
  return {
    coupon_discounts: rows.map(({ discount, coupon }) => discountJson(discount, coupon, planIds.get(coupon.id) ?? [])),
    ...list,
  };
}

/** GET /api/coupon/discount/{id}, and the page that edits it: the discount, every coupon and plan. */
export async function discountApi(db: Database, id: number) {
  const [row] = await discountRows(db, eq(couponDiscounts.id, id));
  invariant(row);
  const [list, planIds] = await Promise.all([couponsAndPlans(db), planIdsByCoupon(db, [row.coupon.id])]);
  return { coupon_discount: discountJson(row.discount, row.coupon, planIds.get(row.coupon.id) ?? []), ...list };
}

/** The page that makes a new discount: the coupons and plans to choose from. */
export const newDiscountApi = couponsAndPlans;

/**
 * The answer of an admin's coupon call that reads (spec §7): 401 to a visitor and 403 to
 * anyone else who is no admin, on the cookie or the state headers; never cached; the state kept.
 */
export async function adminCouponRead(
  request: Request,
  context: AppLoadContext,
  read: (db: Database) => Promise<unknown>,
): Promise<Response> {
  const { viewer, services } = await requireApiAdmin(request, context);
  return withApiErrors(async () => {
    const response = json(await read(services.db), { headers: { "Cache-Control": "no-store" } });
    return withState(response, request, viewer, services.config);
  });
}
