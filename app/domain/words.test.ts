import { describe, expect, it } from "vitest";
import { auditActionWords } from "./audit-words";
import { inWords } from "./vocabularies";
import { causeFormsWords } from "./cause-catalogue";
import { answerWords, checkedWords, countryName, dayWords, membershipLine, membershipWords } from "./words";
import { cardBrandName, cardEnding } from "./card-words";

describe("codes in words", () => {
  it("names each membership status, and none", () => {
    expect(membershipWords("ACTIVE")).toBe("Active");
    expect(membershipWords("PAST_DUE")).toBe("Payment overdue");
    expect(membershipWords("INCOMPLETE_EXPIRED")).toBe("First payment never made");
    expect(membershipWords(null)).toBe("No membership");
    expect(membershipWords("none")).toBe("No membership");
  });

  it("says what an audit action did, a NoL step by its kind and a bulk change by its role", () => {
    expect(auditActionWords("agent.start")).toBe("Began representing a member");
    expect(auditActionWords("nol.step.true-bill-mailing")).toBe("Saved a true bill's mailing");
    expect(auditActionWords("nol.step.proof")).toBe("Saved a proof of delivery");
    expect(auditActionWords("members.bulk.set-nolCreator")).toBe("Made members NoL creators");
    expect(auditActionWords("members.bulk.clear-nolTester")).toBe("Took NoL tester from members");
    expect(auditActionWords("respondents.reject")).toBe("Turned down a respondent");
  });

  it("reads a code no list names as words rather than showing its dots and dashes", () => {
    expect(auditActionWords("nol.step.unknown-kind")).toBe("Nol step unknown kind");
    expect(inWords("jobState", "completed")).toBe("Done");
    expect(inWords("job", "some-new_job")).toBe("Some new job");
    expect(inWords(null, "kept_as_is")).toBe("kept_as_is");
  });

  it("names cause statuses as the spec does, and notarize statuses as the notarize page does", () => {
    expect(["live", "testing", "beta"].map((s) => inWords("causeStatus", s))).toEqual([
      "Available (live)",
      "Testing",
      "Started (beta)",
    ]);
    expect(inWords("notarize", "sent")).toBe("Sent: waiting for you to sign");
  });

  it("names a country from its code, and keeps a code it cannot name", () => {
    expect(countryName("US")).toBe("United States");
    expect(countryName("ca")).toBe("Canada");
    expect(countryName("not a code")).toBe("not a code");
  });
});

describe("a membership in one line", () => {
  const state = { statusText: "Active", ended: false, renewsOn: null, endsOn: null, endedOn: null };
  const date = (iso: string) => iso.slice(0, 10);
  it.each([
    ["none", null, "No membership"],
    ["renewing", { ...state, renewsOn: "2027-01-12T00:00:00Z" }, "Active · renews 2027-01-12"],
    [
      "set to end",
      { ...state, statusText: "Active until the end of this period", endsOn: "2027-01-12T00:00:00Z" },
      "Active until the end of this period · ends 2027-01-12",
    ],
    [
      "a complimentary one that ended",
      { ...state, statusText: "Complimentary, ended", ended: true, endedOn: "2026-11-28T10:00:00Z" },
      "Complimentary, ended · ended 2026-11-28",
    ],
    [
      "overdue",
      { ...state, statusText: "Payment overdue: the last payment did not go through" },
      "Payment overdue: the last payment did not go through",
    ],
  ] as const)("says a membership %s with its one date", (_what, given, line) => {
    expect(membershipLine(given, date)).toBe(line);
  });
});

describe("cards, days and answers in words", () => {
  it.each([
    ["visa", "Visa"],
    ["mastercard", "Mastercard"],
    ["amex", "American Express"],
    ["discover", "Discover"],
    ["diners", "Diners Club"],
    ["jcb", "JCB"],
    ["unionpay", "UnionPay"],
    ["Visa", "Visa"],
    ["unknown", "Card"],
    [null, "Card"],
  ])("writes the card brand %s as the network does: %s", (code, name) => {
    expect(cardBrandName(code)).toBe(name);
  });

  it("names a card by its brand and last four digits", () => {
    expect(cardEnding("visa", "4242")).toBe("Visa ending in 4242");
    expect(cardEnding("amex", "0005")).toBe("American Express ending in 0005");
    expect(cardEnding("new_network", "1234")).toBe("New network ending in 1234");
  });

  it("writes a day as the pages do, never in ISO form", () => {
    expect(dayWords("2026-11-28")).toBe("Nov 28, 2026");
    expect(dayWords("2026-03-02T00:00:00.000Z")).toBe("Mar 2, 2026");
    expect(dayWords(null)).toBe("—");
    expect(dayWords("next Tuesday")).toBe("next Tuesday");
  });

  it("reads a form's answers: a tick box as checked or not, never 'yes', 'no', 'true' or 'false'", () => {
    const answers = [true, false, "2026-11-28", ["2026-01-05", "Clerk"], "", null, 12, "Officer Example"];
    const words = answers.map(answerWords);
    expect(words).toEqual([
      "Checked",
      "Not checked",
      "Nov 28, 2026",
      "Jan 5, 2026, Clerk",
      "—",
      "—",
      "12",
      "Officer Example",
    ]);
    for (const word of words) {
      expect(word).not.toMatch(/^(yes|no|true|false)$/i);
      expect(word).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    }
    expect(checkedWords(true)).toBe("Checked");
  });

  it("names the forms every cause uses, without their numbers", () => {
    expect(causeFormsWords()).toBe("the notice creator, the billing profile and the true bills");
    expect(causeFormsWords()).not.toMatch(/\d/);
  });
});
