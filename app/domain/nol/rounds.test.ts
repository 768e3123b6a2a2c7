import { describe, expect, it } from "vitest";
import { ordinalWord, roundLabel, roundsDoneLabel, trueBillName } from "./rounds";

describe("round naming (spec §4)", () => {
  it.each([
    [1, "Round 1"],
    [2, "Round 2"],
    [3, "Round 3"],
  ])("'Rounds 1 to 3 show as Round N': %i → %s", (round, label) => {
    expect(roundLabel(round)).toEqual({ label });
  });

  it.each([
    [4, "First True Bill"],
    [5, "Second True Bill"],
    [13, "Tenth True Bill"],
    [23, "Twentieth True Bill"],
    [24, "21st True Bill"],
    [25, "22nd True Bill"],
    [26, "23rd True Bill"],
    [27, "24th True Bill"],
    [114, "111th True Bill"],
  ])("'Above 3, shown as the ordinal word of (round minus 3) followed by True Bill': %i → %s", (round, label) => {
    expect(roundLabel(round)).toEqual({ label });
  });

  it("''Setup Billing' is also a label'", () => {
    expect(roundLabel("Setup Billing")).toEqual({ label: "Setup Billing" });
  });

  it.each([[0], [-1], [2.5], ["Round 1"], [null], [undefined]])("'other values trigger a warning': %j", (value) => {
    const result = roundLabel(value);
    expect(result.label).toBeNull();
    expect(result.warning).toMatch(/^Unknown round/);
  });

  it("''Rounds 1 to N' is shown for rounds beyond the first'", () => {
    expect(roundsDoneLabel(1)).toBe("Round 1");
    expect(roundsDoneLabel(3)).toBe("Rounds 1 to 3");
  });

  it("names true bills with ordinal words", () => {
    expect(trueBillName(1)).toBe("First True Bill");
    expect(ordinalWord(12)).toBe("Twelfth");
    expect(() => ordinalWord(0)).toThrow(RangeError);
  });
});
