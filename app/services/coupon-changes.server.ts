import { and, count, eq, ne, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { couponDiscounts, couponPlans, couponRedemptions, coupons } from "~/db/schema";
import { CHOOSE_COUPON, redeemByDate, type CouponInput, type DiscountInput } from "~/domain/coupon-forms";
import { changedCouponTerms, unixSeconds, type CouponTermsRecord } from "~/domain/coupons";
import { invalid, invariant, type FieldErrors } from "~/domain/errors";
import { isUniqueViolation } from "./accounts.server";
import { audit, actorOf } from "./audit.server";
import {
  discountJson,
  planIdsByCoupon,
  planRows,
  type CouponRow,
  type DiscountJson,
  type DiscountRow,
} from "./coupons.server";
import type { Viewer } from "./session.server";

/** What admins change in coupons and coupon discounts; each change goes to the audit log. */

export const SLUG_TAKEN = "Another coupon discount has this slug";
export const VALID_COUPON_ONLY = "Choose a valid coupon: this one is archived";
export const REDEEMED_TERMS =
  "This coupon has been redeemed (or made at the payments provider), so its terms never change: archive it and create a new coupon";
export const ARCHIVED_COUPON = "An archived coupon does not change";
const COUPON_TAKEN = "A coupon with this code exists";

/**
 * Creates a discount (id null) or changes one. The slug is unique whatever its case; a new
 * discount takes only a valid coupon (spec §5), while an existing one may keep or take any.
 */
export async function saveDiscount(
  services: AppServices,
  viewer: Viewer,
  id: number | null,
  input: DiscountInput,
): Promise<{ coupon_discount: DiscountJson; update: boolean }> {
  const { db } = services;
  const [existing] = id === null ? [] : await db.select().from(couponDiscounts).where(eq(couponDiscounts.id, id));
  if (id !== null) invariant(existing);
  const [coupon] = await db.select().from(coupons).where(eq(coupons.id, input.couponId));
  const [taken] = await db
    .select({ id: couponDiscounts.id })
    .from(couponDiscounts)
    .where(
      and(
        sql`lower(${couponDiscounts.couponSlug}) = ${input.couponSlug.toLowerCase()}`,
        existing ? ne(couponDiscounts.id, existing.id) : undefined,
      ),
    )
    .limit(1);
  const errors: FieldErrors = {};
  if (taken) errors.coupon_slug = [SLUG_TAKEN];
  if (!coupon) errors.coupon_id = [CHOOSE_COUPON];
  else if (!existing && !coupon.valid) errors.coupon_id = [VALID_COUPON_ONLY];
  if (!coupon || Object.keys(errors).length > 0) throw invalid(Object.values(errors).flat().join(". "), errors);

  const values = {
    couponSlug: input.couponSlug,
    groupName: input.groupName,
    welcomeMessage: input.welcomeMessage,
    active: input.active,
    couponId: coupon.id,
  };
  let row: DiscountRow;
  try {
    const [saved] = existing
      ? await db.update(couponDiscounts).set(values).where(eq(couponDiscounts.id, existing.id)).returning()
      : await db.insert(couponDiscounts).values(values).returning();
    row = saved!;
  } catch (error) {
    // Another admin took the slug between the check and the write.
    if (isUniqueViolation(error)) throw invalid(SLUG_TAKEN, { coupon_slug: [SLUG_TAKEN] });
    throw error;
  }
  const action = existing ? "coupon_discount.update" : "coupon_discount.create";
  await audit(db, actorOf(viewer), action, "coupon_discount", String(row.id), {
    slug: row.couponSlug,
    couponId: row.couponId,
    active: row.active,
  });
  const planIds = await planIdsByCoupon(db, [coupon.id]);
  return { coupon_discount: discountJson(row, coupon, planIds.get(coupon.id) ?? []), update: Boolean(existing) };
}

/** Deletes a discount; its redemptions keep their coupon. */
export async function deleteDiscount(services: AppServices, viewer: Viewer, id: number): Promise<string> {
  const [row] = await services.db.delete(couponDiscounts).where(eq(couponDiscounts.id, id)).returning();
  invariant(row);
  await audit(services.db, actorOf(viewer), "coupon_discount.delete", "coupon_discount", String(id), {
    slug: row.couponSlug,
    couponId: row.couponId,
  });
  return row.couponSlug;
}

function termsOf(coupon: CouponRow, planIds: readonly string[]): CouponTermsRecord {
  return {
    duration: coupon.duration,
    duration_in_months: coupon.durationInMonths,
    amount_off: coupon.amountOff,
    percent_off: coupon.percentOff === null ? null : Number(coupon.percentOff),
    currency: coupon.currency,
    redeem_by: unixSeconds(coupon.redeemBy),
    plans: planIds,
  };
}

const inputTerms = (input: CouponInput): CouponTermsRecord => ({
  duration: input.duration,
  duration_in_months: input.durationInMonths,
  amount_off: input.amountOff,
  percent_off: input.percentOff,
  currency: input.currency,
  redeem_by: unixSeconds(input.redeemBy),
  plans: input.planIds,
});

/**
 * Creates a coupon, or changes one (`editing`). The terms of a coupon that has been redeemed,
 * or that the payments provider holds, never change: only its name and its limit may; the
 * admin archives it and makes another instead.
 */
export async function saveCoupon(
  services: AppServices,
  viewer: Viewer,
  input: CouponInput,
  { editing, now = new Date() }: { editing: boolean; now?: Date },
): Promise<{ id: string; update: boolean }> {
  const { db } = services;
  const [existing] = await db
    .select()
    .from(coupons)
    .where(sql`lower(${coupons.id}) = ${input.id.toLowerCase()}`);
  if (editing) invariant(existing?.id === input.id ? existing : null);
  else if (existing) throw invalid(COUPON_TAKEN, { coupon_id: [COUPON_TAKEN] });
  // The date field shows the day: the same day sent back keeps the time it had.
  const redeemBy =
    existing?.redeemBy && input.redeemBy && redeemByDate(existing.redeemBy) === redeemByDate(input.redeemBy)
      ? existing.redeemBy
      : input.redeemBy;
  const wanted = { ...input, redeemBy };

  const errors: FieldErrors = {};
  const planList = await planRows(db);
  const chosen = planList.filter((plan) => wanted.planIds.includes(plan.id));
  if (chosen.length !== wanted.planIds.length) errors.plans = ["Choose plans from the list"];
  const currency = wanted.currency;
  if (currency && chosen.some((plan) => plan.currency.toLowerCase() !== currency)) {
    errors.currency = ["Choose the currency the plans are priced in"];
  }
  let timesRedeemed = 0;
  if (existing) {
    if (!existing.valid) throw invalid(ARCHIVED_COUPON);
    const [counted] = await db
      .select({ times: count() })
      .from(couponRedemptions)
      .where(eq(couponRedemptions.couponId, existing.id));
    timesRedeemed = Math.max(existing.timesRedeemed, counted?.times ?? 0);
    const before = termsOf(existing, (await planIdsByCoupon(db, [existing.id])).get(existing.id) ?? []);
    const changed = changedCouponTerms(before, inputTerms(wanted));
    if ((timesRedeemed > 0 || existing.providerRef) && changed.length > 0) throw invalid(REDEEMED_TERMS);
    if (wanted.maxRedemptions !== null && wanted.maxRedemptions < timesRedeemed) {
      errors.max_redemptions = [`It has been redeemed ${timesRedeemed} times already`];
    }
  }
  if (wanted.redeemBy && wanted.redeemBy !== existing?.redeemBy && wanted.redeemBy <= now) {
    errors.redeem_by = ["Choose today or a later date"];
  }
  if (Object.keys(errors).length > 0) throw invalid(Object.values(errors).flat().join(". "), errors);

  const values = {
    name: wanted.name,
    duration: wanted.duration,
    durationInMonths: wanted.durationInMonths,
    redeemBy: wanted.redeemBy,
    amountOff: wanted.amountOff,
    currency: wanted.currency,
    percentOff: wanted.percentOff === null ? null : wanted.percentOff.toFixed(2),
    maxRedemptions: wanted.maxRedemptions,
  };
  try {
    await db.transaction(async (tx) => {
      if (existing) await tx.update(coupons).set(values).where(eq(coupons.id, existing.id));
      else await tx.insert(coupons).values({ id: wanted.id, ...values });
      await tx.delete(couponPlans).where(eq(couponPlans.couponId, wanted.id));
      await tx.insert(couponPlans).values(wanted.planIds.map((planId) => ({ couponId: wanted.id, planId })));
    });
  } catch (error) {
    // Another admin made a coupon of this code between the check and the write.
    if (isUniqueViolation(error)) throw invalid(COUPON_TAKEN, { coupon_id: [COUPON_TAKEN] });
    throw error;
  }
  await audit(db, actorOf(viewer), existing ? "coupon.update" : "coupon.create", "coupon", wanted.id, {
    name: wanted.name,
    terms: inputTerms(wanted),
  });
  return { id: wanted.id, update: Boolean(existing) };
}

/** Archives a coupon (valid = false): new discounts cannot take it, and its landing pages close. */
export async function archiveCoupon(services: AppServices, viewer: Viewer, couponId: string): Promise<string> {
  const [row] = await services.db
    .update(coupons)
    .set({ valid: false })
    .where(eq(coupons.id, couponId))
    .returning({ name: coupons.name });
  invariant(row);
  await audit(services.db, actorOf(viewer), "coupon.archive", "coupon", couponId);
  return row.name;
}
