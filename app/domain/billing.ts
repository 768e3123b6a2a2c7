/**
 * Money rules: what a checkout charges with a coupon, whether a coupon may be used, how long
 * it lowers a subscription, and what a subscription grants. Pure: the services bring the rows.
 * Money is integer cents with an ISO currency everywhere.
 */
import { applyCoupon, type CouponTerms } from "./coupons";

export const DONATION_MIN_CENTS = 100;
export const DONATION_MAX_CENTS = 1_000_000;

export type BillingPlan = {
  id: string;
  title: string;
  kind: "subscription" | "donation" | "credit";
  amountCents: number | null;
  currency: string;
  interval: "month" | "year" | null;
  active: boolean;
  features: readonly string[];
};

export type BillingCoupon = {
  id: string;
  name: string;
  duration: CouponTerms["duration"];
  durationInMonths: number | null;
  amountOff: number | null;
  percentOff: number | null;
  currency: string | null;
  redeemBy: Date | null;
  valid: boolean;
  maxRedemptions: number | null;
  timesRedeemed: number;
  /** The plans the coupon is for; empty: none. */
  planIds: readonly string[];
};

/** Why a coupon cannot be used for a plan now, in words for the member; null when it can. */
export function couponRefusal(coupon: BillingCoupon, plan: BillingPlan, now: Date): string | null {
  if (!coupon.valid) return "This coupon is no longer valid";
  if (coupon.redeemBy && coupon.redeemBy.getTime() <= now.getTime()) return "This coupon has expired";
  if (coupon.maxRedemptions !== null && coupon.timesRedeemed >= coupon.maxRedemptions) {
    return "This coupon has been used up";
  }
  if (!coupon.planIds.includes(plan.id)) return `This coupon is not for the ${plan.title}`;
  if (coupon.amountOff !== null && coupon.currency && coupon.currency.toLowerCase() !== plan.currency.toLowerCase()) {
    return `This coupon is not for the ${plan.title}`;
  }
  return null;
}

/** How many payments of a subscription the coupon lowers: null for every payment. */
export function couponPayments(
  coupon: Pick<BillingCoupon, "duration" | "durationInMonths">,
  interval: "month" | "year" | null,
): number | null {
  if (coupon.duration === "forever") return null;
  if (coupon.duration === "once" || interval === null) return 1;
  const months = Math.max(1, coupon.durationInMonths ?? 1);
  return interval === "year" ? Math.ceil(months / 12) : months;
}

export type Quote = {
  planId: string;
  currency: string;
  /** The price before the coupon. */
  listAmountCents: number;
  /** What the first payment charges. */
  amountCents: number;
  /** What the payments after the first charge, while the subscription lasts; null for one-off payments. */
  laterAmountCents: number | null;
  /** Payments the coupon lowers (null: every one); 0 without a coupon. */
  couponPayments: number | null;
  couponId: string | null;
};

export type QuoteInput = {
  plan: BillingPlan;
  /** A donation's amount, in cents; ignored for priced plans. */
  donationCents?: number | null;
  coupon?: BillingCoupon | null;
  now: Date;
  /** The donation range from config; the defaults otherwise. */
  donationLimits?: DonationLimits;
};

export type DonationLimits = { minCents: number; maxCents: number };

const amountText = (cents: number) =>
  (cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** "Enter a donation from 1.00 to 10,000.00". */
export function donationRangeMessage(limits: DonationLimits): string {
  return `Enter a donation from ${amountText(limits.minCents)} to ${amountText(limits.maxCents)}`;
}

export type QuoteResult =
  { ok: true; quote: Quote } | { ok: false; field: "planId" | "amount" | "coupon"; message: string };

/** A plan as the pay pages offer it: what it is, its price with the offer in force, and why the offer does not lower it. */
export type PlanOffer = {
  plan: BillingPlan & { description: string | null };
  quote: Quote | null;
  /** Why the coupon in force does not lower this plan, if it does not. */
  couponNote: string | null;
};

/**
 * The price a member sees and the amount charged: the same function for both. A coupon that
 * cannot be used is refused with its reason, and nothing is charged.
 */
export function quote({ plan, donationCents, coupon, now, donationLimits }: QuoteInput): QuoteResult {
  const limits = donationLimits ?? { minCents: DONATION_MIN_CENTS, maxCents: DONATION_MAX_CENTS };
  if (!plan.active) return { ok: false, field: "planId", message: "Choose a membership" };
  let listAmountCents: number;
  if (plan.kind === "donation") {
    if (
      donationCents === null ||
      donationCents === undefined ||
      !Number.isSafeInteger(donationCents) ||
      donationCents < limits.minCents ||
      donationCents > limits.maxCents
    ) {
      return { ok: false, field: "amount", message: donationRangeMessage(limits) };
    }
    listAmountCents = donationCents;
  } else {
    if (plan.amountCents === null || plan.amountCents <= 0) {
      return { ok: false, field: "planId", message: "Choose a membership" };
    }
    listAmountCents = plan.amountCents;
  }
  const subscription = plan.kind === "subscription";
  const priced = (amountCents: number, laterAmountCents: number, rest: Pick<Quote, "couponPayments" | "couponId">) => ({
    ok: true as const,
    quote: {
      planId: plan.id,
      currency: plan.currency,
      listAmountCents,
      amountCents,
      laterAmountCents: subscription ? laterAmountCents : null,
      ...rest,
    },
  });
  if (!coupon) return priced(listAmountCents, listAmountCents, { couponPayments: 0, couponId: null });
  const refusal = couponRefusal(coupon, plan, now);
  if (refusal) return { ok: false, field: "coupon", message: refusal };
  const discounted = applyCoupon(listAmountCents, { amount_off: coupon.amountOff, percent_off: coupon.percentOff });
  const payments = couponPayments(coupon, plan.interval);
  return priced(discounted, payments === null ? discounted : listAmountCents, {
    couponPayments: payments,
    couponId: coupon.id,
  });
}

/**
 * What the next payment of a subscription charges after `paymentsMade` payments of it:
 * the coupon's price while it lasts, then the plan's.
 */
export function renewalAmount(
  listAmountCents: number,
  coupon: Pick<BillingCoupon, "amountOff" | "percentOff"> | null,
  couponPaymentsLeft: number | null,
): number {
  if (!coupon) return listAmountCents;
  if (couponPaymentsLeft !== null && couponPaymentsLeft <= 0) return listAmountCents;
  return applyCoupon(listAmountCents, { amount_off: coupon.amountOff, percent_off: coupon.percentOff });
}

/** The end of a period that starts at `from`: one month or one year later (a month's end kept within it). */
export function addInterval(from: Date, interval: "month" | "year", count = 1): Date {
  const end = new Date(from);
  const day = end.getUTCDate();
  if (interval === "year") end.setUTCFullYear(end.getUTCFullYear() + count);
  else end.setUTCMonth(end.getUTCMonth() + count);
  // 31 January + 1 month is 28/29 February, not 2/3 March.
  if (end.getUTCDate() !== day) end.setUTCDate(0);
  return end;
}

export type SubscriptionStanding = {
  status: string;
  /** Who bills it: a complimentary one ends on its period's end without a provider's event. */
  provider?: string;
  pastDueSince: Date | null;
  currentPeriodEnd: Date | null;
  features: readonly string[];
};

/**
 * The features a subscription grants now: its plan's, while it is ACTIVE or TRIALING, or
 * PAST_DUE within the grace period; none once it ends.
 */
export function grantedFeatures(subscription: SubscriptionStanding | null, now: Date, graceDays: number): string[] {
  if (!subscription) return [];
  const { status } = subscription;
  // A complimentary one ends on its day, whether or not the job has marked it yet.
  const ends = subscription.provider === "complimentary" ? subscription.currentPeriodEnd : null;
  if (ends && now.getTime() >= ends.getTime()) return [];
  if (status === "ACTIVE" || status === "TRIALING") return [...subscription.features];
  if (status === "PAST_DUE") {
    const since = subscription.pastDueSince ?? subscription.currentPeriodEnd;
    if (since && now.getTime() - since.getTime() <= graceDays * 86_400_000) return [...subscription.features];
  }
  return [];
}

/** Parses a money amount typed by a person ("12", "12.5", "1,250.00") into cents; null when it is not one. */
export function parseAmount(text: string): number | null {
  const cleaned = text
    .trim()
    .replace(/^\$/, "")
    .replace(/,(?=\d{3}(\D|$))/g, "");
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole, fraction = ""] = cleaned.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** The statuses of a membership in force: paid, or owed after a failed renewal. */
export const LIVE_STATUSES = ["ACTIVE", "TRIALING", "PAST_DUE"] as const;

/** What a payment for letters mailed from the app is called on receipts and lists. */
export const MAILING_PAYMENT_TITLE = "Letters by Certified Mail";
export const MAILING_PAID_MESSAGE = "Thank you: your payment went through, and your letters are being sent.";

/** What a payment was for, as receipts and payment lists name it. */
export function paymentTitle(kind: string, planTitle: string | null | undefined): string {
  if (kind === "donation") return "Donation";
  if (kind === "mailing") return MAILING_PAYMENT_TITLE;
  if (kind === "card") return "Your new card";
  return planTitle ?? "Membership";
}
