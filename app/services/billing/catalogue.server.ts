import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { couponPlans, plans } from "~/db/schema";
import { quote, type BillingCoupon, type BillingPlan, type PlanOffer } from "~/domain/billing";
import { describeCoupon } from "~/domain/coupons";
import { activeDiscountOfSlug, billingCoupon } from "~/services/coupons.server";

/** The plans with their prices, and the coupons that lower them, as the pay pages offer them. */

type PlanRow = typeof plans.$inferSelect;

export function billingPlan(plan: PlanRow): BillingPlan {
  return {
    id: plan.id,
    title: plan.title,
    kind: plan.kind,
    amountCents: plan.amountCents,
    currency: plan.currency,
    interval: plan.interval,
    active: plan.active,
    features: plan.features,
  };
}

/** The coupon of an offer slug with the plans it is for, or null for an unknown or inactive offer. */
export async function couponOfSlug(
  services: AppServices,
  slug: string,
): Promise<{ coupon: BillingCoupon; discountId: number; slug: string } | null> {
  const row = await activeDiscountOfSlug(services.db, slug);
  if (!row) return null;
  const planRows = await services.db
    .select({ planId: couponPlans.planId })
    .from(couponPlans)
    .where(eq(couponPlans.couponId, row.coupon.id));
  return {
    coupon: billingCoupon(
      row.coupon,
      planRows.map((p) => p.planId),
    ),
    discountId: row.discount.id,
    slug: row.discount.couponSlug,
  };
}

export type CatalogueEntry = PlanOffer;

export type Catalogue = {
  plans: CatalogueEntry[];
  coupon: { slug: string; name: string; description: string } | null;
  donation: { minCents: number; maxCents: number };
};

/** The plans with their prices, and with the coupon of `slug` where it applies. */
export async function billingCatalogue(
  services: AppServices,
  slug: string | null,
  now = new Date(),
): Promise<Catalogue> {
  const rows = await services.db.select().from(plans).where(eq(plans.active, true)).orderBy(plans.sort);
  const offer = slug ? await couponOfSlug(services, slug) : null;
  const limits = { minCents: services.config.donationMinCents, maxCents: services.config.donationMaxCents };
  const entries = rows.map((row) => {
    const plan = { ...billingPlan(row), description: row.description };
    if (plan.kind === "donation") return { plan, quote: null, couponNote: null };
    const plain = quote({ plan, now, donationLimits: limits });
    if (!offer || !offer.coupon.planIds.includes(plan.id)) {
      return { plan, quote: plain.ok ? plain.quote : null, couponNote: null };
    }
    const discounted = quote({ plan, coupon: offer.coupon, now, donationLimits: limits });
    return discounted.ok
      ? { plan, quote: discounted.quote, couponNote: null }
      : { plan, quote: plain.ok ? plain.quote : null, couponNote: discounted.message };
  });
  return {
    plans: entries,
    coupon: offer
      ? {
          slug: offer.slug,
          name: offer.coupon.name,
          description: describeCoupon({
            amount_off: offer.coupon.amountOff,
            percent_off: offer.coupon.percentOff,
            duration: offer.coupon.duration,
            duration_in_months: offer.coupon.durationInMonths,
          }),
        }
      : null,
    donation: limits,
  };
}
