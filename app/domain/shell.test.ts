import { describe, expect, it } from "vitest";
import { continueSetupPath, couponBannerFixed, couponBannerWay, subscriptionWarning } from "./shell";

describe("coupon banner", () => {
  // spec §2.4 "dismissible everywhere except on /c/ and /signup paths"
  it("is fixed on the coupon landing and the sign-up pages", () => {
    for (const path of ["/c", "/c/WELCOME", "/signup", "/signup/check-email"]) {
      expect(couponBannerFixed(path), path).toBe(true);
    }
  });

  it("is dismissible everywhere else", () => {
    for (const path of ["/", "/community", "/coupon/discounts", "/profile"]) {
      expect(couponBannerFixed(path), path).toBe(false);
    }
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

describe("home warning", () => {
  // spec §2.4 "a link to continue signup (no user id yet) or setup (user id present)"
  it("leads to signup without a user id and to setup with one", () => {
    expect(continueSetupPath({ user_id: null })).toBe("/signup");
    expect(continueSetupPath({ user_id: "5d0c1f7e-0000-4000-8000-000000000000" })).toBe("/setup");
  });
});

describe("the coupon banner's way to the offer", () => {
  it("asks a visitor to sign up", () => {
    expect(couponBannerWay(null)).toEqual({ link: "sign up", to: "/signup" });
  });

  it("never asks a signed-in member to sign up: setup for one still in it, a membership for the others", () => {
    expect(couponBannerWay({ needsSetup: true })).toEqual({ link: "finish setting up your account", to: "/setup" });
    expect(couponBannerWay({ needsSetup: false })).toEqual({ link: "choose a membership", to: "/subscription" });
  });
});
