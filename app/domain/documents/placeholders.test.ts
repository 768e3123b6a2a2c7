import { describe, expect, it } from "vitest";
import { BLANK, fillTemplate, PLACEHOLDERS, placeholdersFor, placeholdersIn, templateProblems } from "./placeholders";
import { SAMPLE_TEMPLATES } from "./samples";

describe("template placeholders", () => {
  it("names each placeholder once", () => {
    const names = PLACEHOLDERS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("finds the names a text uses, spaces inside the braces allowed", () => {
    expect(placeholdersIn("{{claimant.name}} and {{ round }} and {{claimant.name}}")).toEqual([
      "claimant.name",
      "round",
    ]);
  });

  it("fills each placeholder, and prints a line to write on where the data has nothing yet", () => {
    expect(fillTemplate("To {{ claimant.name }}, {{mailing_date}}.", { "claimant.name": "Cara" })).toBe(
      `To Cara, ${BLANK}.`,
    );
    expect(fillTemplate("{{round}}/{{round}}", { round: "2" })).toBe("2/2");
  });

  it("accepts a text that names only its kind's placeholders", () => {
    expect(templateProblems("{{title}} for {{claimant.name}}", "notice")).toEqual([]);
    expect(templateProblems("{{escalation_fee}}", "true-bill")).toEqual([]);
    expect(templateProblems("No placeholder at all", "notice")).toEqual([]);
  });

  it("names unknown placeholders, true-bill placeholders in a notice, and an unclosed one", () => {
    expect(templateProblems("{{claimant}} {{foo.bar}}", "notice")).toEqual([
      "Unknown placeholders {{claimant}}, {{foo.bar}}: use the names listed with the text.",
    ]);
    expect(templateProblems("{{nope}}", "true-bill")).toEqual([
      "Unknown placeholder {{nope}}: use the names listed with the text.",
    ]);
    expect(templateProblems("{{escalation_fee}} {{true_bill_total}}", "notice")).toEqual([
      "{{escalation_fee}}, {{true_bill_total}} can be used in true bills only.",
    ]);
    expect(templateProblems("Dear {{claimant.name\nnext line", "notice")).toEqual([
      'Close the placeholder that starts with "{{claimant.name" with }}.',
    ]);
  });

  it("keeps a proof of service's list to proofs of service, and the amounts to notices and bills", () => {
    expect(templateProblems("{{service_list}} {{delivery_date}}", "notice")).toEqual([
      "{{service_list}}, {{delivery_date}} can be used in proofs of service only.",
    ]);
    expect(templateProblems("{{daily_amount}}", "proof-of-service")).toEqual([
      "{{daily_amount}} can be used in notices and true bills only.",
    ]);
    expect(templateProblems("{{claimant.name}} {{tracking_number}} {{service_list}}", "proof-of-service")).toEqual([]);
  });

  it("ships sample templates that use only their kind's placeholders", () => {
    expect(templateProblems(SAMPLE_TEMPLATES.notice, "notice")).toEqual([]);
    expect(templateProblems(SAMPLE_TEMPLATES["true-bill"], "true-bill")).toEqual([]);
    expect(templateProblems(SAMPLE_TEMPLATES["proof-of-service"], "proof-of-service")).toEqual([]);
    expect(placeholdersFor("notice").some((p) => p.name === "escalation_fee")).toBe(false);
    expect(placeholdersFor("true-bill").some((p) => p.name === "escalation_fee")).toBe(true);
  });
});
