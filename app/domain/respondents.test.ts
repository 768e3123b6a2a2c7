import { describe, expect, it } from "vitest";
import { chosenNotice, correctionSchema, directoryQuerySchema, sameRespondent, suggestionSchema } from "./respondents";

describe("respondent rules", () => {
  it("takes one respondent per name and place, whatever their case and spacing", () => {
    expect(
      sameRespondent(
        { name: "Officer  Example", place: "Springfield" },
        { name: "officer example", place: " springfield" },
      ),
    ).toBe(true);
    expect(
      sameRespondent(
        { name: "Officer Example", place: "Springfield" },
        { name: "Officer Example", place: "Shelbyville" },
      ),
    ).toBe(false);
    expect(sameRespondent({ name: "A", place: null }, { name: "a" })).toBe(true);
  });

  it("checks every field of a suggestion at once", () => {
    const parsed = suggestionSchema.safeParse({ name: "", type: "Wizard" });
    expect(parsed.success).toBe(false);
    const paths = new Set(parsed.error!.issues.map((i) => i.path[0]));
    expect([...paths].sort()).toEqual(["name", "place", "reason", "type"]);
  });

  it("reads the directory's query leniently and a correction strictly", () => {
    expect(directoryQuerySchema.parse({ q: " clerk ", type: "Nobody" })).toEqual({ q: "clerk", type: undefined });
    expect(correctionSchema.safeParse({ notice: "x", change: "y" }).success).toBe(false);
  });
});

describe("the notice a correction opens with", () => {
  const notices = [
    { id: 11, cause: "TS", version: "v1", round: 1 },
    { id: 12, cause: "TS", version: "v1", round: 2 },
    { id: 21, cause: "TS", version: "v2", round: 1 },
  ];
  it("is the one named, when it is the member's", () => {
    expect(chosenNotice(notices, { notice: 11 })).toBe(11);
    expect(chosenNotice(notices, { notice: 99, cause: "TS", version: "v1" })).toBeNull();
  });
  it("is the latest round of the version named, else none", () => {
    expect(chosenNotice(notices, { cause: "TS", version: "v1" })).toBe(12);
    expect(chosenNotice(notices, { cause: "TS", version: "v2" })).toBe(21);
    expect(chosenNotice(notices, { cause: "XX", version: "v1" })).toBeNull();
    expect(chosenNotice(notices, {})).toBeNull();
  });
});
