import { describe, expect, it } from "vitest";
import type { ApiResult } from "./api-client";
import { hasSubscription, landingAfterRefresh } from "./coupon-client";

const answer = (over: Partial<ApiResult<unknown>>): ApiResult<unknown> => ({
  data: null,
  error: null,
  status: 200,
  ignored: false,
  ...over,
});

describe("the coupon landing's refreshed load (spec §4, §7)", () => {
  it("'A server state carrying sub_id resets the coupon landing'", () => {
    expect(landingAfterRefresh(answer({ data: { plans: [] } }), true)).toBe("member");
    expect(hasSubscription({ sub_id: "sub_1" })).toBe(true);
    expect(hasSubscription({ sub_id: null })).toBe(false);
    expect(hasSubscription(null)).toBe(false);
  });

  it("shows the refreshed offer", () => {
    expect(landingAfterRefresh(answer({ data: { plans: [] } }), false)).toBe("verified");
  });

  it("'A 404 without a state header is ignored': the first load's offer is kept", () => {
    expect(landingAfterRefresh(answer({ status: 404, ignored: true }), false)).toBe("first");
  });

  it("closes the offer on a 404 that carries the member's state", () => {
    expect(landingAfterRefresh(answer({ status: 404, error: "This offer is not available" }), false)).toBe(
      "unavailable",
    );
  });

  it("keeps the first load's offer when the refresh fails otherwise", () => {
    expect(landingAfterRefresh(answer({ status: 500, error: "The request failed (500)" }), false)).toBe("first");
  });
});
