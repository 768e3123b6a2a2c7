import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import type { Database } from "~/db/client.server";
import { couponDiscounts, coupons, couponPlans, plans } from "~/db/schema";
import { couponRefusal, quote, type BillingCoupon, type Quote } from "~/domain/billing";
import { describeCoupon, unixSeconds } from "~/domain/coupons";
import type { couponDiscountSchema, couponSchema, planSchema } from "~/domain/entities";

/**
 * Coupons as the spec's API shows them (§3 Coupon, Coupon discount, Plan), and the public
 * side: the offer behind a landing page's slug, and the coupon banner.
 */

export type CouponRow = typeof coupons.$inferSelect;
export type DiscountRow = typeof couponDiscounts.$inferSelect;
type PlanRow = typeof plans.$inferSelect;

export type CouponJson = z.infer<typeof couponSchema>;
export type DiscountJson = z.infer<typeof couponDiscountSchema>;
export type PlanJson = z.infer<typeof planSchema>;

const percentOf = (coupon: CouponRow) => (coupon.percentOff === null ? null : Number(coupon.percentOff));

/** A coupon row as spec §3's Coupon: redeem_by in unix seconds, amount_off in cents. */
export function couponJson(coupon: CouponRow): CouponJson {
  return {
    coupon_id: coupon.id,
    name: coupon.name,
    duration: coupon.duration,
    duration_in_months: coupon.durationInMonths,
    redeem_by: unixSeconds(coupon.redeemBy),
    amount_off: coupon.amountOff,
    percent_off: percentOf(coupon),
    valid: coupon.valid,
    data: { name: coupon.name, valid: coupon.valid },
  };
}

/** "10% off your first payment": a coupon's terms in words. */
export function couponTerms(coupon: CouponRow): string {
  return describeCoupon({
    amount_off: coupon.amountOff,
    percent_off: percentOf(coupon),
    duration: coupon.duration,
    duration_in_months: coupon.durationInMonths,
  });
}

/** A discount row and its coupon as spec §3's Coupon discount. */
export function discountJson(discount: DiscountRow, coupon: CouponRow, planIds: readonly string[]): DiscountJson {
  return {
    coupon_discount_id: discount.id,
    active: discount.active,
    group_name: discount.groupName,
    welcome_message: discount.welcomeMessage,
    coupon_slug: discount.couponSlug,
    coupon_plans: [{ coupon_id: coupon.id, plans: [...planIds] }],
    coupon_id: coupon.id,
    coupon_name: coupon.name,
    coupon_valid: coupon.valid,
  };
}

/** Every plan, in the order the site lists them. */
export async function planRows(db: Database): Promise<PlanRow[]> {
  return db.select().from(plans).orderBy(asc(plans.sort), asc(plans.id));
}

export const planJson = (plan: Pick<PlanRow, "id" | "title">): PlanJson => ({ id: plan.id, title: plan.title });

/** The plans of each coupon (all coupons, or the ones named), by coupon id. */
export async function planIdsByCoupon(db: Database, couponIds?: readonly string[]): Promise<Map<string, string[]>> {
  if (couponIds?.length === 0) return new Map();
  const rows = await db
    .select({ couponId: couponPlans.couponId, planId: couponPlans.planId })
    .from(couponPlans)
    .innerJoin(plans, eq(plans.id, couponPlans.planId))
    .where(couponIds ? inArray(couponPlans.couponId, [...couponIds]) : undefined)
    .orderBy(asc(plans.sort), asc(plans.id));
  const byCoupon = new Map<string, string[]>();
  for (const row of rows) byCoupon.set(row.couponId, [...(byCoupon.get(row.couponId) ?? []), row.planId]);
  return byCoupon;
}

/** A coupon as the billing rules read it, with the plans it is for. */
export function billingCoupon(coupon: CouponRow, planIds: readonly string[]): BillingCoupon {
  return {
    id: coupon.id,
    name: coupon.name,
    duration: coupon.duration,
    durationInMonths: coupon.durationInMonths,
    amountOff: coupon.amountOff,
    percentOff: percentOf(coupon),
    currency: coupon.currency,
    redeemBy: coupon.redeemBy,
    valid: coupon.valid,
    maxRedemptions: coupon.maxRedemptions,
    timesRedeemed: coupon.timesRedeemed,
    planIds,
  };
}

/**
 * A plan of an offer with its prices in cents: before the coupon (list_amount), the first
 * payment after it (amount), the payments after that (later_amount, null for a one-off
 * payment) and how many payments the coupon lowers (null: every one). A donation's
 * amounts are null: the member chooses it.
 */
export type OfferPlan = PlanJson & {
  kind: PlanRow["kind"];
  interval: PlanRow["interval"];
  currency: string;
  list_amount: number | null;
  amount: number | null;
  later_amount: number | null;
  coupon_payments: number | null;
};

/** GET /api/coupon_slug/discount/{slug} and the landing page: the discount and its plans, priced. */
export type CouponOffer = { discount: DiscountJson & { description: string }; plans: OfferPlan[] };

/** A slug as a landing page may name one (older slugs may hold upper case or _). */
const LOOKUP_SLUG = /^[\w-]{1,64}$/;

/** The active discount a slug names, whatever its case, with its coupon; null for any other slug. */
export async function activeDiscountOfSlug(db: Database, slug: string) {
  if (!LOOKUP_SLUG.test(slug)) return null;
  const [row] = await db
    .select({ discount: couponDiscounts, coupon: coupons })
    .from(couponDiscounts)
    .innerJoin(coupons, eq(coupons.id, couponDiscounts.couponId))
    .where(and(sql`lower(${couponDiscounts.couponSlug}) = ${slug.toLowerCase()}`, eq(couponDiscounts.active, true)))
    .limit(1);
  return row ?? null;
}

/**
 * The offer behind a slug: an active discount whose coupon can be used now (valid, not past
 * its redeem_by, not used up) for at least one active plan. Null otherwise. Prices come from
 * the billing rules' quote, the same function that prices a checkout.
 */
export async function couponOffer(db: Database, slug: string, now = new Date()): Promise<CouponOffer | null> {
  const row = await activeDiscountOfSlug(db, slug);
  if (!row) return null;
  const planList = await db
    .select({ plan: plans })
    .from(couponPlans)
    .innerJoin(plans, eq(plans.id, couponPlans.planId))
    .where(and(eq(couponPlans.couponId, row.coupon.id), eq(plans.active, true)))
    .orderBy(asc(plans.sort), asc(plans.id));
  const coupon = billingCoupon(
    row.coupon,
    planList.map(({ plan }) => plan.id),
  );
  const offered: OfferPlan[] = [];
  for (const { plan } of planList) {
    let priced: Quote | null = null;
    if (plan.kind === "donation") {
      if (couponRefusal(coupon, plan, now)) continue;
    } else {
      const result = quote({ plan, coupon, now });
      if (!result.ok) continue;
      priced = result.quote;
    }
    offered.push({
      ...planJson(plan),
      kind: plan.kind,
      interval: plan.interval,
      currency: plan.currency,
      list_amount: priced?.listAmountCents ?? null,
      amount: priced?.amountCents ?? null,
      later_amount: priced?.laterAmountCents ?? null,
      coupon_payments: priced ? priced.couponPayments : null,
    });
  }
  if (offered.length === 0) return null;
  return {
    discount: {
      ...discountJson(row.discount, row.coupon, coupon.planIds),
      description: couponTerms(row.coupon),
    },
    plans: offered,
  };
}

/** The active discount behind a coupon slug, when its coupon can be used now (see couponOffer). */
export async function verifiedDiscount(db: Database, slug: string) {
  const offer = await couponOffer(db, slug);
  if (!offer) return null;
  const { discount } = offer;
  return {
    slug: discount.coupon_slug,
    groupName: discount.group_name,
    welcomeMessage: discount.welcome_message,
    description: discount.description,
    plans: offer.plans.map(planJson),
  };
}

/** The coupon banner (spec §2.4): the verified offer of a slug, and whether the member dismissed it. */
export async function couponBanner(db: Database, slug: unknown, dismissedSlug: unknown) {
  if (typeof slug !== "string") return null;
  const discount = await verifiedDiscount(db, slug);
  if (!discount) return null;
  return {
    slug: discount.slug,
    description: discount.description,
    groupName: discount.groupName,
    dismissed: dismissedSlug === discount.slug,
  };
}
