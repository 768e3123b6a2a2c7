import { describe, expect, it } from "vitest";
import { COMPANY_TAG, ENTRY_TYPE, formTimezone, isFormHash } from "./forms";

describe("form constants (spec §9)", () => {
  it("'The entry type is 'Continue with Round'. The company tag is fixed.'", () => {
    expect(ENTRY_TYPE).toBe("Continue with Round");
    expect(COMPANY_TAG).toBe("memberhall");
  });

  it.each([
    ["Europe/Paris", "Europe/Paris"],
    ["America/New_York", "America/New_York"],
    ["Not/A_Zone", "UTC"],
    ["", "UTC"],
    [42, "UTC"],
    ["x".repeat(65), "UTC"],
  ])("'The form timezone is sent': %s is kept as %s", (value, zone) => {
    expect(formTimezone(value)).toBe(zone);
  });

  it("'The cognito hash is a fragment part longer than 30 characters ending in *.'", () => {
    expect(isFormHash(`${"a".repeat(30)}*`)).toBe(true);
    expect(isFormHash(`${"a".repeat(29)}*`)).toBe(false);
    expect(isFormHash("a".repeat(40))).toBe(false);
  });
});
