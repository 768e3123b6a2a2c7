/** Coupon rules (spec §5 "A coupon applies as amount_off (cents) or percent_off"). */
import { formatCents, formatMoney } from "~/lib/format";

export type CouponTerms = {
  amount_off: number | null;
  percent_off: number | null;
  duration: "once" | "repeating" | "forever";
  duration_in_months: number | null;
};

export const COUPON_ERROR = "Unable to calculate new amount by applying coupon";

/** Under the 404 of a landing page whose slug names no open offer. */
export const OFFER_UNAVAILABLE = "This offer is not available";

/** The amount after the coupon, in cents; never below 0. */
export function applyCoupon(amountCents: number, coupon: Pick<CouponTerms, "amount_off" | "percent_off">): number {
  if (coupon.amount_off !== null && coupon.amount_off !== undefined)
    return Math.max(0, amountCents - coupon.amount_off);
  if (coupon.percent_off !== null && coupon.percent_off !== undefined) {
    return Math.max(0, Math.round(amountCents * (1 - coupon.percent_off / 100)));
  }
  throw new Error(COUPON_ERROR);
}

export { formatCents };

/** A sentence such as "10% off your first payment" or "$5.00 off each payment for 3 months". */
export function describeCoupon(coupon: CouponTerms): string {
  const off = coupon.amount_off !== null ? `$${formatCents(coupon.amount_off)} off` : `${coupon.percent_off}% off`;
  if (coupon.duration === "once") return `${off} your first payment`;
  if (coupon.duration === "repeating") {
    const months = coupon.duration_in_months ?? 1;
    return `${off} each payment for ${months} ${months === 1 ? "month" : "months"}`;
  }
  return `${off} every payment`;
}

/** spec §5 "Coupon options show only valid coupons, unless editing an existing discount." */
export function couponOptions<T extends { valid: boolean }>(coupons: readonly T[], editing: boolean): T[] {
  return editing ? [...coupons] : coupons.filter((coupon) => coupon.valid);
}

/** What a coupon promises, as the payments provider keeps it: none of it changes once redeemed. */
export type CouponTermsRecord = CouponTerms & {
  currency: string | null;
  /** Unix seconds, as the API shows it. */
  redeem_by: number | null;
  plans: readonly string[];
};

/** The terms that differ between a coupon and its edit; empty when only the name or the limit changes. */
export function changedCouponTerms(before: CouponTermsRecord, after: CouponTermsRecord): string[] {
  const same = (a: readonly string[], b: readonly string[]) => [...a].sort().join("\n") === [...b].sort().join("\n");
  const keys = ["duration", "duration_in_months", "amount_off", "percent_off", "currency", "redeem_by"] as const;
  const changed: string[] = keys.filter((key) => (before[key] ?? null) !== (after[key] ?? null));
  if (!same(before.plans, after.plans)) changed.push("plans");
  return changed;
}

/** A time as the API shows coupons' redeem_by: whole unix seconds, or null. */
export function unixSeconds(date: Date | null): number | null {
  return date ? Math.floor(date.getTime() / 1000) : null;
}

type Interval = "month" | "year" | null;

/** "$20.00 a month", "$200.00 a year", or "$25.00" for a one-off payment. */
export function pricePer(cents: number, currency: string, interval: Interval): string {
  return interval ? `${formatMoney(cents, currency)} a ${interval}` : formatMoney(cents, currency);
}

/**
 * A plan's price with the coupon, from its quote: "$16.00 a month" while the coupon lasts
 * forever, "$18.00 for the first month, then $20.00 a month", or "$15.00 a month for 3
 * months, then $20.00 a month".
 */
export function priceAfterCoupon(price: {
  listAmountCents: number;
  amountCents: number;
  couponPayments: number | null;
  currency: string;
  interval: Interval;
}): string {
  const { listAmountCents, amountCents, couponPayments, currency, interval } = price;
  if (!interval || couponPayments === null) return pricePer(amountCents, currency, interval);
  const then = `then ${pricePer(listAmountCents, currency, interval)}`;
  if (couponPayments <= 1) return `${formatMoney(amountCents, currency)} for the first ${interval}, ${then}`;
  return `${pricePer(amountCents, currency, interval)} for ${couponPayments} ${interval}s, ${then}`;
}

export const COUPON_SLUG_RULE = "1 to 64 characters: lower-case letters, digits and hyphens";
export const CHOOSE_COUPON = "Choose a coupon";
export const COUPON_ID_RULE = "1 to 40 characters: letters, digits, _ and -";

/** "2026-12-31" for a coupon's redeem_by, as the date field shows it (UTC). */
export function redeemByDate(date: Date | string | null): string {
  return date ? new Date(date).toISOString().slice(0, 10) : "";
}
