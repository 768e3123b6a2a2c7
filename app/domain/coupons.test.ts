import { describe, expect, it } from "vitest";
import {
  applyCoupon,
  changedCouponTerms,
  COUPON_ERROR,
  couponOptions,
  describeCoupon,
  formatCents,
  priceAfterCoupon,
  pricePer,
  unixSeconds,
  type CouponTermsRecord,
} from "./coupons";

describe("applyCoupon (spec §5)", () => {
  it("'A coupon applies as amount_off (cents)'", () => {
    expect(applyCoupon(2000, { amount_off: 500, percent_off: null })).toBe(1500);
  });

  it("'or percent_off'", () => {
    expect(applyCoupon(2000, { amount_off: null, percent_off: 10 })).toBe(1800);
    expect(applyCoupon(999, { amount_off: null, percent_off: 33.3 })).toBe(666);
  });

  it("'The amount result never drops below 0'", () => {
    expect(applyCoupon(300, { amount_off: 500, percent_off: null })).toBe(0);
  });

  it("'With neither, an error is raised'", () => {
    expect(() => applyCoupon(2000, { amount_off: null, percent_off: null })).toThrow(COUPON_ERROR);
  });
});

describe("coupon wording", () => {
  it("'Coupon amounts are shown as cents/100 with 2 decimals'", () => {
    expect(formatCents(500)).toBe("5.00");
    expect(formatCents(1999)).toBe("19.99");
  });

  it.each([
    [{ amount_off: null, percent_off: 10, duration: "once", duration_in_months: null }, "10% off your first payment"],
    [
      { amount_off: 500, percent_off: null, duration: "repeating", duration_in_months: 3 },
      "$5.00 off each payment for 3 months",
    ],
    [{ amount_off: null, percent_off: 25, duration: "forever", duration_in_months: null }, "25% off every payment"],
  ] as const)("describes %o as %s", (coupon, text) => {
    expect(describeCoupon(coupon)).toBe(text);
  });
});

describe("couponOptions (spec §5)", () => {
  const coupons = [
    { id: "A", valid: true },
    { id: "B", valid: false },
    { id: "C", valid: true },
  ];

  it("'Coupon options show only valid coupons'", () => {
    expect(couponOptions(coupons, false).map((c) => c.id)).toEqual(["A", "C"]);
  });

  it("'unless editing an existing discount'", () => {
    expect(couponOptions(coupons, true).map((c) => c.id)).toEqual(["A", "B", "C"]);
  });
});

describe("changedCouponTerms: a redeemed coupon's terms never change", () => {
  const base: CouponTermsRecord = {
    amount_off: null,
    percent_off: 20,
    duration: "forever",
    duration_in_months: null,
    currency: null,
    redeem_by: null,
    plans: ["monthly", "annual"],
  };

  it("finds nothing when only the plans' order differs", () => {
    expect(changedCouponTerms(base, { ...base, plans: ["annual", "monthly"] })).toEqual([]);
  });

  it.each([
    [{ percent_off: 25 }, ["percent_off"]],
    [{ percent_off: null, amount_off: 500, currency: "usd" }, ["amount_off", "percent_off", "currency"]],
    [{ duration: "repeating", duration_in_months: 3 }, ["duration", "duration_in_months"]],
    [{ redeem_by: 1_900_000_000 }, ["redeem_by"]],
    [{ plans: ["monthly"] }, ["plans"]],
  ] as const)("names the changed terms of %o", (change, names) => {
    expect(changedCouponTerms(base, { ...base, ...change })).toEqual(names);
  });
});

describe("unixSeconds: redeem_by in the API", () => {
  it("is whole seconds, or null", () => {
    expect(unixSeconds(new Date("2026-12-31T23:59:59.999Z"))).toBe(1_798_761_599);
    expect(unixSeconds(null)).toBeNull();
  });
});

describe("a plan's price before and after a coupon (spec §9: cents/100 with 2 decimals)", () => {
  it.each([
    [2000, "usd", "month", "$20.00 a month"],
    [20000, "usd", "year", "$200.00 a year"],
    [2500, "usd", null, "$25.00"],
  ] as const)("%i %s per %s is %s", (cents, currency, interval, text) => {
    expect(pricePer(cents, currency, interval)).toBe(text);
  });

  it.each([
    ["forever", { amountCents: 1600, couponPayments: null, interval: "month" }, "$16.00 a month"],
    [
      "once",
      { amountCents: 1800, couponPayments: 1, interval: "month" },
      "$18.00 for the first month, then $20.00 a month",
    ],
    [
      "three months",
      { amountCents: 1500, couponPayments: 3, interval: "month" },
      "$15.00 a month for 3 months, then $20.00 a month",
    ],
    ["a one-off payment", { amountCents: 1800, couponPayments: 1, interval: null }, "$18.00"],
  ] as const)("with a coupon for %s", (_label, price, text) => {
    expect(priceAfterCoupon({ listAmountCents: 2000, currency: "usd", ...price })).toBe(text);
  });
});
