import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import {
  AMOUNT_OR_PERCENT,
  couponFormSchema,
  discountBodySchema,
  discountFormSchema,
  discountIdOf,
  redeemByDate,
} from "./coupon-forms";

/** A form as the browser posts it: repeated names for the ticked plans. */
function form(values: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) {
    for (const one of Array.isArray(value) ? value : [value]) data.append(name, one);
  }
  return data;
}

/** A refused submission's messages by field. */
const errorsOf = (result: { status?: string; error?: Record<string, string[] | null> | null }) =>
  result.status === "error" ? result.error : null;

const parseCoupon = (values: Record<string, string | string[]>) =>
  parseWithZod(form(values), { schema: couponFormSchema });

const coupon = {
  coupon_id: "SPRING20",
  name: "Spring 20% off",
  duration: "forever",
  percent_off: "20",
  plans: "monthly",
};

describe("the coupon form", () => {
  it("takes a percent off for one ticked plan", () => {
    const result = parseCoupon(coupon);
    expect(result.status).toBe("success");
    expect(result.status === "success" && result.value).toEqual({
      id: "SPRING20",
      name: "Spring 20% off",
      duration: "forever",
      durationInMonths: null,
      redeemBy: null,
      amountOff: null,
      currency: null,
      percentOff: 20,
      maxRedemptions: null,
      planIds: ["monthly"],
    });
  });

  it("takes an amount off in dollars as cents, with its currency, and the end of the redeem_by day", () => {
    const result = parseCoupon({
      ...coupon,
      percent_off: "",
      amount_off: "4.50",
      currency: "USD",
      duration: "repeating",
      duration_in_months: "3",
      redeem_by: "2030-06-30",
      max_redemptions: "100",
      plans: ["monthly", "annual"],
    });
    expect(result.status === "success" && result.value).toMatchObject({
      amountOff: 450,
      currency: "usd",
      percentOff: null,
      durationInMonths: 3,
      redeemBy: new Date("2030-06-30T23:59:59Z"),
      maxRedemptions: 100,
      planIds: ["monthly", "annual"],
    });
  });

  it.each([
    ["neither an amount nor a percent", { percent_off: "" }, "amount_off", AMOUNT_OR_PERCENT],
    ["both an amount and a percent", { amount_off: "5" }, "percent_off", `${AMOUNT_OR_PERCENT}, not both`],
    ["a percent above 100", { percent_off: "101" }, "percent_off", "Enter a percent from 0.01 to 100"],
    ["a percent of three decimals", { percent_off: "10.005" }, "percent_off", "Enter a percent from 0.01 to 100"],
    [
      "repeating without months",
      { duration: "repeating" },
      "duration_in_months",
      "Enter the number of months, from 1 to 36",
    ],
    ["no plan", { plans: [] }, "plans", "Choose the plans the coupon is for"],
    [
      "a code the API route cannot reach",
      { coupon_id: "Discounts" },
      "coupon_id",
      "This code is kept for the API: choose another",
    ],
    ["a code with a space", { coupon_id: "TWO WORDS" }, "coupon_id", "1 to 40 characters: letters, digits, _ and -"],
    ["a date that is none", { redeem_by: "2030-02-30" }, "redeem_by", "Enter a date as YYYY-MM-DD"],
    ["no limit of 0", { max_redemptions: "0" }, "max_redemptions", "Enter at least 1, or leave it empty for no limit"],
  ])("refuses %s", (_label, change, field, message) => {
    const result = parseCoupon({ ...coupon, ...change });
    expect(result.status).toBe("error");
    expect(errorsOf(result)?.[field]).toContain(message);
  });

  it("drops the months of a coupon that does not repeat", () => {
    const result = parseCoupon({ ...coupon, duration_in_months: "3" });
    expect(result.status === "success" && result.value.durationInMonths).toBeNull();
  });
});

describe("the coupon discount form", () => {
  it("keeps the slug lower-case, blank texts null, and an unticked Active false", () => {
    const result = parseWithZod(form({ coupon_slug: " Spring-Friends ", group_name: "", coupon_id: "SPRING20" }), {
      schema: discountFormSchema,
    });
    expect(result.status === "success" && result.value).toEqual({
      couponSlug: "spring-friends",
      groupName: null,
      welcomeMessage: null,
      active: false,
      couponId: "SPRING20",
    });
  });

  it.each([
    [{ coupon_slug: "no spaces" }, "coupon_slug"],
    [{ coupon_slug: "under_score" }, "coupon_slug"],
    [{ coupon_id: "" }, "coupon_id"],
  ])("refuses %o", (change, field) => {
    const result = parseWithZod(form({ coupon_slug: "spring", coupon_id: "SPRING20", ...change }), {
      schema: discountFormSchema,
    });
    expect(result.status).toBe("error");
    expect(Object.keys(errorsOf(result) ?? {})).toEqual([field]);
  });
});

describe("POST /api/coupon/discount's body", () => {
  it("is the coupon discount of spec §3, written whole: a missing active is true, the coupon's own fields are not taken", () => {
    const parsed = discountBodySchema.parse({
      coupon_slug: "spring",
      coupon_id: "SPRING20",
      coupon_name: "ignored",
      coupon_valid: false,
      coupon_plans: [{ coupon_id: "SPRING20", plans: ["monthly"] }],
    });
    expect(parsed).toEqual({
      id: null,
      input: { couponSlug: "spring", groupName: null, welcomeMessage: null, active: true, couponId: "SPRING20" },
    });
  });

  it("names the discount to change by coupon_discount_id", () => {
    expect(
      discountBodySchema.parse({ coupon_discount_id: 7, coupon_slug: "a", coupon_id: "B", active: false }),
    ).toMatchObject({ id: 7, input: { active: false } });
  });
});

describe("discount ids and dates as the pages show them", () => {
  it.each([
    ["12", 12],
    ["0", null],
    ["012", null],
    ["1e3", null],
    ["9999999999", null],
    [undefined, null],
  ])("the path segment %s names discount %s", (param, id) => {
    expect(discountIdOf(param)).toBe(id);
  });

  it("shows redeem_by as its UTC day", () => {
    expect(redeemByDate("2030-06-30T23:59:59.000Z")).toBe("2030-06-30");
    expect(redeemByDate(null)).toBe("");
  });
});
