/** Coupon rules (spec §5 "A coupon applies as amount_off (cents) or percent_off"). */
import { formatCents } from "~/lib/format";

export type CouponTerms = {
  amount_off: number | null;
  percent_off: number | null;
  duration: "once" | "repeating" | "forever";
  duration_in_months: number | null;
};

export const COUPON_ERROR = "Unable to calculate new amount by applying coupon";

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
