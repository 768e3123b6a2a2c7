import { describe, expect, it } from "vitest";
import { applyCoupon, COUPON_ERROR, describeCoupon, formatCents } from "./coupons";

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
