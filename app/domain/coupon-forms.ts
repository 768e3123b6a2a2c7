/**
 * What an admin may send to make coupons and coupon discounts: one zod schema per form,
 * validating in the browser (conform) and on the server, and the JSON body of
 * POST /api/coupon/discount. Each gives the service one normalised input.
 */
import { z } from "zod";
import { parseAmount } from "./billing";
import type { CouponTerms } from "./coupons";
import { CHOOSE_COUPON, COUPON_ID_RULE, COUPON_SLUG_RULE, redeemByDate } from "./coupons";
import { INTEGER_MAX } from "./whole-numbers";

export { CHOOSE_COUPON, COUPON_ID_RULE, COUPON_SLUG_RULE, redeemByDate };

/** The slug of a landing page /c/{slug}: kept lower-case, so that it is unique whatever the case. */
export const couponSlugSchema = z
  .string({ required_error: "Enter the slug of the landing page" })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9-]{1,64}$/, COUPON_SLUG_RULE);

/**
 * Coupon ids that GET /api/coupon/{coupon_id} could never reach: the router gives these
 * paths to /api/coupon/discount and /api/coupon/discounts (whatever their case).
 */
const RESERVED_COUPON_IDS = new Set(["discount", "discounts"]);

export const couponIdSchema = z
  .string({ required_error: "Enter the coupon's code" })
  .trim()
  .regex(/^[A-Za-z0-9_-]{1,40}$/, COUPON_ID_RULE)
  .refine((id) => !RESERVED_COUPON_IDS.has(id.toLowerCase()), "This code is kept for the API: choose another");

const chosenCoupon = z.string({ required_error: CHOOSE_COUPON }).trim().min(1, CHOOSE_COUPON).max(64, CHOOSE_COUPON);

const text = (label: string, max: number) => z.string().trim().max(max, `${label}: at most ${max} characters`);

/** A discount as the service takes it: blank texts are null. */
export type DiscountInput = {
  couponSlug: string;
  groupName: string | null;
  welcomeMessage: string | null;
  active: boolean;
  couponId: string;
};

const GROUP = text("Group", 100);
const WELCOME = text("Welcome message", 1_000);

/** The form of /coupon/discount/{id?}: an unticked "Active" box sends nothing, so it is false. */
export const discountFormSchema = z
  .object({
    coupon_slug: couponSlugSchema,
    group_name: GROUP.optional(),
    welcome_message: WELCOME.optional(),
    active: z.boolean().optional(),
    coupon_id: chosenCoupon,
  })
  .transform((v): DiscountInput => ({
    couponSlug: v.coupon_slug,
    groupName: v.group_name || null,
    welcomeMessage: v.welcome_message || null,
    active: v.active ?? false,
    couponId: v.coupon_id,
  }));

/**
 * POST /api/coupon/discount: the coupon discount of spec §3. It is written whole: a missing
 * text is null, a missing `active` is true (as a new discount is); the fields that describe
 * the coupon (coupon_plans, coupon_name, coupon_valid) are read from the coupon, never taken.
 */
export const discountBodySchema = z
  .object({
    coupon_discount_id: z.number().int().positive().max(INTEGER_MAX).nullish(),
    coupon_slug: couponSlugSchema,
    group_name: GROUP.nullish(),
    welcome_message: WELCOME.nullish(),
    active: z.boolean().default(true),
    coupon_id: chosenCoupon,
  })
  .transform((v) => ({
    id: v.coupon_discount_id ?? null,
    input: {
      couponSlug: v.coupon_slug,
      groupName: v.group_name || null,
      welcomeMessage: v.welcome_message || null,
      active: v.active,
      couponId: v.coupon_id,
    } satisfies DiscountInput,
  }));

/** A coupon as the service takes it: money in cents, redeem_by the end of its day (UTC). */
export type CouponInput = {
  id: string;
  name: string;
  duration: CouponTerms["duration"];
  durationInMonths: number | null;
  redeemBy: Date | null;
  amountOff: number | null;
  currency: string | null;
  percentOff: number | null;
  maxRedemptions: number | null;
  planIds: string[];
};

export const AMOUNT_OR_PERCENT = "Enter an amount off or a percent off";
const PERCENT_RULE = "Enter a percent from 0.01 to 100";
const MONTHS_RULE = "Enter the number of months, from 1 to 36";
const AMOUNT_RULE = "Enter an amount in dollars, such as 5 or 4.50";
const CHOOSE_PLANS = "Choose the plans the coupon is for";

const isDate = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
};

/** At most two decimals, as the coupon's percent is kept. */
const hundredths = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

/** The coupon form of /coupon/discounts: amount_off in dollars and its currency, or percent_off. */
export const couponFormSchema = z
  .object({
    coupon_id: couponIdSchema,
    name: z.string({ required_error: "Enter the coupon's name" }).trim().min(1, "Enter the coupon's name").max(80),
    duration: z.enum(["once", "repeating", "forever"], {
      errorMap: () => ({ message: "Choose once, repeating or forever" }),
    }),
    duration_in_months: z
      .number({ invalid_type_error: MONTHS_RULE })
      .int(MONTHS_RULE)
      .min(1, MONTHS_RULE)
      .max(36, MONTHS_RULE)
      .optional(),
    redeem_by: z
      .string()
      .trim()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter a date as YYYY-MM-DD")
      .refine(isDate, "Enter a date as YYYY-MM-DD")
      .optional(),
    amount_off: z.string().trim().max(20, AMOUNT_RULE).optional(),
    currency: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z]{3}$/, "Choose a currency")
      .optional(),
    percent_off: z
      .number({ invalid_type_error: PERCENT_RULE })
      .gt(0, PERCENT_RULE)
      .max(100, PERCENT_RULE)
      .refine(hundredths, PERCENT_RULE)
      .optional(),
    max_redemptions: z
      .number({ invalid_type_error: "Enter a whole number, or leave it empty for no limit" })
      .int("Enter a whole number, or leave it empty for no limit")
      .min(1, "Enter at least 1, or leave it empty for no limit")
      .max(1_000_000, "At most 1,000,000")
      .optional(),
    plans: z
      .array(z.string().trim().min(1).max(64), { required_error: CHOOSE_PLANS, invalid_type_error: CHOOSE_PLANS })
      .min(1, CHOOSE_PLANS)
      .max(50),
  })
  .superRefine((v, ctx) => {
    const amount = v.amount_off === undefined ? null : parseAmount(v.amount_off);
    if (v.amount_off !== undefined && (amount === null || amount <= 0)) {
      ctx.addIssue({ code: "custom", path: ["amount_off"], message: AMOUNT_RULE });
    }
    if (v.amount_off === undefined && v.percent_off === undefined) {
      ctx.addIssue({ code: "custom", path: ["amount_off"], message: AMOUNT_OR_PERCENT });
    }
    if (v.amount_off !== undefined && v.percent_off !== undefined) {
      ctx.addIssue({ code: "custom", path: ["percent_off"], message: `${AMOUNT_OR_PERCENT}, not both` });
    }
    if (v.duration === "repeating" && v.duration_in_months === undefined) {
      ctx.addIssue({ code: "custom", path: ["duration_in_months"], message: MONTHS_RULE });
    }
  })
  .transform((v): CouponInput => ({
    id: v.coupon_id,
    name: v.name,
    duration: v.duration,
    durationInMonths: v.duration === "repeating" ? (v.duration_in_months ?? null) : null,
    redeemBy: v.redeem_by ? new Date(`${v.redeem_by}T23:59:59Z`) : null,
    amountOff: v.amount_off === undefined ? null : parseAmount(v.amount_off),
    currency: v.amount_off === undefined ? null : (v.currency ?? "usd"),
    percentOff: v.percent_off ?? null,
    maxRedemptions: v.max_redemptions ?? null,
    planIds: [...new Set(v.plans)],
  }));

/** The coupon forms' other action: archive a coupon (valid = false). */
export const archiveCouponSchema = z.object({ intent: z.literal("archive-coupon"), coupon_id: couponIdSchema });

/** A coupon discount's id as a path names it; null for anything else (which names no discount). */
export function discountIdOf(param: string | undefined): number | null {
  if (!param || !/^[1-9]\d{0,8}$/.test(param)) return null;
  return Number(param);
}
