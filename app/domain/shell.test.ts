import { describe, expect, it } from "vitest";
import { couponBannerFixed, subscriptionWarning } from "./shell";

describe("coupon banner", () => {
  // spec §2.4 "dismissible everywhere except on /c/ and /signup paths"
  it.each([
    ["/c", true],
    ["/c/WELCOME", true],
    ["/signup", true],
    ["/signup/check-email", true],
    ["/", false],
    ["/community", false],
    ["/coupon/discounts", false],
    ["/profile", false],
  ])("on %s it is fixed: %s", (pathname, fixed) => {
    expect(couponBannerFixed(pathname)).toBe(fixed);
  });
});

describe("subscription warning bar", () => {
  // spec §2.4 "A warning bar at the bottom shows the subscription status when it is not ACTIVE"
  it.each([
    [null, null],
    [{ needsSetup: false, sub_status: "ACTIVE" }, null],
    [{ needsSetup: false, sub_status: "PAST_DUE" }, "PAST_DUE"],
    [{ needsSetup: false, sub_status: "TRIALING" }, "TRIALING"],
    [{ needsSetup: false, sub_status: null }, null],
    [{ needsSetup: true, sub_status: "CANCELED" }, null],
  ])("for %j shows %s", (session, shown) => {
    expect(subscriptionWarning(session)).toBe(shown);
  });
});
