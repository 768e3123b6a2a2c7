import { describe, expect, it } from "vitest";
import { grantedFeatures } from "./billing";
import { complimentaryEnd, shownStatus } from "./complimentary";

describe("complimentary memberships", () => {
  it.each([
    [undefined, { end: null }],
    ["2026-12-26", { end: new Date("2026-12-26T00:00:00.000Z") }],
    ["2036-11-26", { end: new Date("2036-11-26T00:00:00.000Z") }],
    ["2026-11-26", { error: "The end date must be after today" }],
    ["2026-01-01", { error: "The end date must be after today" }],
    ["2036-11-27", { error: "The end date must be within 10 years" }],
  ])("an end day of %s, granted on 2026-11-26, gives %j", (endsOn, expected) => {
    expect(complimentaryEnd(endsOn, "2026-11-26")).toEqual(expected);
  });

  it("shows one in force as Complimentary, and any other by its status", () => {
    expect(shownStatus({ provider: "complimentary", status: "ACTIVE" })).toBe("COMPLIMENTARY");
    expect(shownStatus({ provider: "complimentary", status: "CANCELED" })).toBe("CANCELED");
    expect(shownStatus({ provider: "stripe", status: "ACTIVE" })).toBe("ACTIVE");
    expect(shownStatus(null)).toBeNull();
  });

  it("grants its plan's features until its end day, even before the job marks it ended", () => {
    const end = new Date("2026-12-26T00:00:00Z");
    const standing = { status: "ACTIVE", pastDueSince: null, currentPeriodEnd: end, features: ["nolCreator"] };
    const before = new Date("2026-12-25T23:59:59Z");
    expect(grantedFeatures({ ...standing, provider: "complimentary" }, before, 7)).toEqual(["nolCreator"]);
    expect(grantedFeatures({ ...standing, provider: "complimentary" }, end, 7)).toEqual([]);
    expect(grantedFeatures({ ...standing, provider: "complimentary", currentPeriodEnd: null }, end, 7)).toEqual([
      "nolCreator",
    ]);
    // A paid one lasts as its provider says: its period's end alone does not stop it.
    expect(grantedFeatures({ ...standing, provider: "stripe" }, end, 7)).toEqual(["nolCreator"]);
  });
});
