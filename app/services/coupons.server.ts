import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { couponDiscounts, coupons, couponPlans, plans } from "~/db/schema";
import { describeCoupon } from "~/domain/coupons";
import { invariant } from "~/domain/errors";

/** The active discount behind a coupon slug, with its coupon, if both are valid. */
export async function verifiedDiscount(db: Database, slug: string) {
  if (!/^[\w-]{1,64}$/.test(slug)) return null;
  const [row] = await db
    .select({ discount: couponDiscounts, coupon: coupons })
    .from(couponDiscounts)
    .innerJoin(coupons, eq(coupons.id, couponDiscounts.couponId))
    .where(and(sql`lower(${couponDiscounts.couponSlug}) = ${slug.toLowerCase()}`, eq(couponDiscounts.active, true)))
    .limit(1);
  if (!row || !row.coupon.valid) return null;
  if (row.coupon.redeemBy && row.coupon.redeemBy.getTime() < Date.now()) return null;
  const planRows = await db
    .select({ id: plans.id, title: plans.title })
    .from(couponPlans)
    .innerJoin(plans, eq(plans.id, couponPlans.planId))
    .where(eq(couponPlans.couponId, row.coupon.id));
  return {
    slug: row.discount.couponSlug,
    groupName: row.discount.groupName,
    welcomeMessage: row.discount.welcomeMessage,
    description: describeCoupon({
      amount_off: row.coupon.amountOff,
      percent_off: row.coupon.percentOff === null ? null : Number(row.coupon.percentOff),
      duration: row.coupon.duration,
      duration_in_months: row.coupon.durationInMonths,
    }),
    plans: planRows,
  };
}

/** The offer a coupon landing page shows: the slug in the path, else the one kept in the cookie. */
export async function landingDiscount(db: Database, slug: string | null) {
  const discount = slug ? await verifiedDiscount(db, slug) : null;
  invariant(discount);
  return discount;
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
