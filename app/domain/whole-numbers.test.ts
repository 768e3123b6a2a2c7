import { describe, expect, it } from "vitest";
import { INTEGER_MAX, INTEGER_MIN, wholeNumber } from "./whole-numbers";

/** The messages a value gets, each once (a value can break two bounds with the same words). */
const message = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? null : [...new Set(result.error!.issues.map((i) => i.message))];

describe("a whole number for an integer column", () => {
  const RULE = "Enter a whole number from -2,147,483,648 to 2,147,483,647";

  it.each([
    [0, null],
    [INTEGER_MAX, null],
    [INTEGER_MIN, null],
    [INTEGER_MAX + 1, [RULE]],
    [INTEGER_MIN - 1, [RULE]],
    // JavaScript reads both as whole numbers; PostgreSQL's integer cannot hold them.
    [1e308, [RULE]],
    [Number("99999999999999999999999"), [RULE]],
    [1.5, [RULE]],
    [Number.NaN, [RULE]],
    [Infinity, [RULE]],
    ["7", [RULE]],
    [undefined, [RULE]],
  ])("%s: %j", (value, errors) => {
    expect(message(wholeNumber().safeParse(value))).toEqual(errors);
  });

  it("keeps to narrower bounds, with the field's own message", () => {
    const id = wholeNumber({ min: 1, message: "Choose a respondent", coerce: true });
    expect(id.parse("12")).toBe(12);
    for (const value of ["0", "-3", "1e308", "99999999999999999999999", "2147483648", "1.5", "x", ""])
      expect(message(id.safeParse(value)), value).toEqual(["Choose a respondent"]);
    expect(id.parse(String(INTEGER_MAX))).toBe(INTEGER_MAX);
    expect(message(wholeNumber({ min: 1, max: 36 }).safeParse(37))).toEqual(["Enter a whole number from 1 to 36"]);
  });
});
