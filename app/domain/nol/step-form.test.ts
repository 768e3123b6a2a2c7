import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { stepSchema, type StepContext } from "./step-form";
import { TRACKING_MESSAGE } from "./timeline-inputs";

/** The form as the browser sends it, read the way both the browser and the save read it. */
function submit(step: Parameters<typeof stepSchema>[0], values: Record<string, string>, context?: StepContext) {
  const form = new FormData();
  for (const [name, value] of Object.entries(values)) form.set(name, value);
  return parseWithZod(form, { schema: stepSchema(step, context) });
}

describe("the step forms (one schema for the browser and the save)", () => {
  const notice = { kind: "notice", round: 1 } as const;
  const mailing = { kind: "mailing", round: 1 } as const;
  it.each([
    ["claimantName", "Enter the claimant's name", notice, { dailyAmount: "1", r1Name: "X" }],
    ["dailyAmount", "Enter an amount such as 250 or 250.00", notice, { claimantName: "C", r1Name: "X" }],
    ["r1Name", "Name at least one respondent", notice, { claimantName: "C", dailyAmount: "1" }],
    ["mailingDate", "Enter a real date", mailing, { mailingDate: "2026-02-30", trackingNumber: "RR1234" }],
    [
      "mailingDate",
      "Enter a date as YYYY-MM-DD",
      { kind: "true-bill-mailing", round: 4 },
      { trackingNumber: "RR1234" },
    ],
    ["trackingNumber", "Enter the tracking number", mailing, { mailingDate: "2026-03-01" }],
    ["trackingNumber", TRACKING_MESSAGE, mailing, { mailingDate: "2026-03-01", trackingNumber: "RR1234" }],
    ["delivered", "Confirm that the proof of delivery arrived", { kind: "proof", round: 1 }, {}],
    ["deliveredOn", "Enter a date as YYYY-MM-DD", { kind: "proof", round: 1 }, { delivered: "on" }],
    [
      "deliveredOn",
      "The delivery date cannot be in the future",
      { kind: "true-bill-proof", round: 4 },
      { delivered: "on", deliveredOn: "2026-03-11" },
    ],
    [
      "deliveredOn",
      "The delivery date cannot be before the mailing date (2026-03-02)",
      { kind: "proof", round: 1 },
      { delivered: "on", deliveredOn: "2026-03-01" },
    ],
  ] as const)("refuses the form by %s: %s", (field, message, step, values) => {
    const submission = submit(step, values, { today: "2026-03-10", mailedOn: "2026-03-02" });
    expect(submission.status === "error" && submission.error?.[field]).toEqual([message]);
  });

  it("keeps a tracking number without the spaces and dashes pasted with it", () => {
    const submission = submit(mailing, { mailingDate: "2026-03-01", trackingNumber: "9400 1000-0000 0000 0000 00" });
    expect(submission.status === "success" && submission.value).toEqual({
      mailingDate: "2026-03-01",
      trackingNumber: "9400100000000000000000",
    });
  });

  it("asks a tracking number for each respondent a mailing goes to, and keeps each without spaces", () => {
    const recipients = [
      { slot: 1, name: "Officer Example" },
      { slot: 9, name: "Second Officer" },
    ];
    const missing = submit(mailing, { mailingDate: "2026-03-01", track1: "RR123456789US" }, { recipients });
    expect(missing.status === "error" && missing.error).toEqual({ track9: ["Enter the tracking number"] });
    const bad = submit(mailing, { mailingDate: "2026-03-01", track1: "RR1", track9: "RR123456789US" }, { recipients });
    expect(bad.status === "error" && bad.error).toEqual({ track1: [TRACKING_MESSAGE] });
    const both = submit(
      { kind: "true-bill-mailing", round: 4 },
      { mailingDate: "2026-03-01", track1: "rr 123-456-789 us", track9: "9400 1000 0000 0000 0000 00" },
      { recipients },
    );
    expect(both.status === "success" && both.value).toEqual({
      mailingDate: "2026-03-01",
      track1: "RR123456789US",
      track9: "9400100000000000000000",
    });
  });

  it("takes a delivery on the mailing day or after it, up to today", () => {
    const context = { today: "2026-03-10", mailedOn: "2026-03-02" };
    for (const deliveredOn of ["2026-03-02", "2026-03-10"])
      expect(submit({ kind: "proof", round: 1 }, { delivered: "on", deliveredOn }, context).status).toBe("success");
  });

  it("keeps the respondents named before in later rounds: none need be named again", () => {
    expect(submit({ kind: "notice", round: 3 }, { claimantName: "C", dailyAmount: "250" }).status).toBe("success");
  });

  it("offers the respondent slots open in the round (spec §5: 8, then 4 more in rounds 2 and 3)", () => {
    const named = submit(
      { kind: "notice", round: 2 },
      { claimantName: "C", dailyAmount: "1", r12Name: "L", r13Name: "M" },
    );
    expect(named.status === "success" && named.value).toMatchObject({ r12Name: "L" });
    expect(named.status === "success" && "r13Name" in named.value).toBe(false);
  });

  it("takes each respondent's mailing address, trimmed, up to 300 characters", () => {
    const base = { claimantName: "C", dailyAmount: "1", r1Name: "X" };
    const given = submit(notice, { ...base, r1Address: "  1 Precinct Way, Springfield  " });
    expect(given.status === "success" && given.value).toMatchObject({ r1Address: "1 Precinct Way, Springfield" });
    const long = submit(notice, { ...base, r1Address: "x".repeat(301) });
    expect(long.status === "error" && long.error).toEqual({ r1Address: ["Use at most 300 characters"] });
  });

  it("takes the claimant's mailing address in lines, optional, up to 300 characters", () => {
    const base = { claimantName: "C", dailyAmount: "1", r1Name: "X" };
    const given = submit(notice, { ...base, claimantAddress: " 100 Sample Street\nSpringfield, IL 62701 " });
    expect(given.status === "success" && given.value).toMatchObject({
      claimantAddress: "100 Sample Street\nSpringfield, IL 62701",
    });
    const none = submit(notice, base);
    expect(none.status === "success" && "claimantAddress" in none.value).toBe(false);
    const long = submit(notice, { ...base, claimantAddress: "x".repeat(301) });
    expect(long.status === "error" && long.error).toEqual({ claimantAddress: ["Use at most 300 characters"] });
  });

  it("reads amounts as cents", () => {
    const bill = submit(
      { kind: "true-bill", round: 4 },
      { preparationDate: "2026-06-01", administrativeJudgment: "100.5" },
    );
    expect(bill.status === "success" && bill.value).toEqual({
      preparationDate: "2026-06-01",
      administrativeJudgment: 10_050,
    });
  });
});
