import { describe, expect, it } from "vitest";
import { chosenRespondentSchema, correctionQuerySchema } from "./page-params";
import { reviewFacts } from "./respondent-review";
import {
  chosenNotice,
  correctionSchema,
  directoryQuerySchema,
  reassessmentSchema,
  sameRespondent,
  suggestionSchema,
} from "./respondents";

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

  it.each(["1e308", "99999999999999999999999", "2147483648", "0", "-1", "x"])(
    "names no respondent or notice by %s: the ids are integers from 1 to 2,147,483,647",
    (id) => {
      const fieldErrors = (result: { success: boolean; error?: { flatten(): { fieldErrors: object } } }) =>
        result.success ? null : result.error!.flatten().fieldErrors;
      expect(fieldErrors(reassessmentSchema.safeParse({ respondent: id, reason: "r" }))).toEqual({
        respondent: ["Choose a respondent"],
      });
      expect(fieldErrors(correctionSchema.safeParse({ notice: id, change: "c" }))).toEqual({
        notice: ["Choose the notice to correct"],
      });
      expect(chosenRespondentSchema.parse(id)).toBeNull();
      expect(correctionQuerySchema.parse({ notice: id, cause: null, version: null }).notice).toBeNull();
    },
  );

  it("takes the largest id an integer column holds", () => {
    expect(reassessmentSchema.parse({ respondent: "2147483647", reason: "r" }).respondent).toBe(2_147_483_647);
    expect(correctionSchema.parse({ notice: "2147483647", change: "c" }).notice).toBe(2_147_483_647);
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

describe("a request as the review page shows it", () => {
  it("labels the answers as the form asked them, in the form's order, without the directory's number", () => {
    expect(reviewFacts("reassessment", { reason: "Moved", respondentId: 4, respondentName: "Judge Example" })).toEqual([
      ["Respondent", "Judge Example"],
      ["What should be reassessed", "Moved"],
    ]);
    expect(
      reviewFacts("suggestion", { type: "Official", name: "Clerk", place: "Halifax", reason: "Notices", agency: null }),
    ).toEqual([
      ["Name", "Clerk"],
      ["Kind of respondent", "Official"],
      ["Agency or company", "—"],
      ["Place", "Halifax"],
      ["Why they belong in the directory", "Notices"],
    ]);
  });
});
