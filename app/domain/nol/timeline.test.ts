import { describe, expect, it } from "vitest";
import { delivered, mailed, prepared, step, threeRounds } from "../../../tests/helpers/round-records";
import { addDays, timelineOf, windowKindOf } from "./timeline";
import { normaliseTracking, trackingNumberSchema, TRACKING_MESSAGE, windowDaysSchema } from "./timeline-inputs";

const windows = { notice: 21, fault: 14, default: 10, "true-bill": 30 };

describe("the timeline of a version, for each step of spec §4", () => {
  it.each([
    {
      name: "no entry: Round 1 Notice of Liability can go out now",
      records: [],
      step: step("notice", 1),
      today: "2026-01-05",
      states: ["next"],
      next: { round: 1, name: "Round 1 Notice of Liability", availableOn: null, early: false },
    },
    {
      name: "round 1 prepared: its mailing is next, no new round",
      records: [prepared(1)],
      step: step("mailing", 1),
      today: "2026-01-05",
      states: ["prepared"],
      next: null,
    },
    {
      name: "round 1 mailed: its proof of delivery is next",
      records: [mailed(1, "2026-01-06")],
      step: step("proof", 1),
      today: "2026-01-07",
      states: ["mailed"],
      next: null,
    },
    {
      name: "round 1 delivered: the Notice of Fault waits for the notice's window (21 days)",
      records: [delivered(1, "2026-01-06", "2026-01-10")],
      step: step("notice", 2),
      today: "2026-01-20",
      states: ["delivered", "next"],
      respondBy: ["2026-01-31", null],
      next: { round: 2, name: "Round 2 Notice of Fault", availableOn: "2026-02-01", early: true },
    },
    {
      name: "round 1's window closed: the Notice of Fault can go out",
      records: [delivered(1, "2026-01-06", "2026-01-10")],
      step: step("notice", 2),
      today: "2026-02-01",
      states: ["delivered", "next"],
      next: { round: 2, name: "Round 2 Notice of Fault", availableOn: "2026-02-01", early: false },
    },
    {
      name: "a delivery recorded without its day holds nothing back",
      records: [delivered(1, "2026-01-06", null)],
      step: step("notice", 2),
      today: "2026-01-07",
      states: ["delivered", "next"],
      respondBy: [null, null],
      next: { round: 2, name: "Round 2 Notice of Fault", availableOn: null, early: false },
    },
    {
      name: "round 2 delivered: the Default waits for the fault's window (14 days)",
      records: [delivered(1, "2026-01-06", "2026-01-10"), delivered(2, "2026-02-02", "2026-02-05")],
      step: step("notice", 3),
      today: "2026-02-10",
      states: ["delivered", "delivered", "next"],
      respondBy: ["2026-01-31", "2026-02-19", null],
      next: { round: 3, name: "Round 3 Default", availableOn: "2026-02-20", early: true },
    },
    {
      name: "round 3 delivered, no billing profile: Setup Billing now, the First True Bill after the default's window",
      records: threeRounds,
      step: step("setup-billing", null),
      today: "2026-02-25",
      states: ["delivered", "delivered", "delivered", "next"],
      respondBy: ["2026-01-31", "2026-02-19", "2026-03-06", null],
      next: { round: 4, name: "First True Bill", availableOn: "2026-03-07", early: true },
    },
    {
      name: "round 3 delivered with a billing profile: the First True Bill after the default's window",
      records: threeRounds,
      step: step("true-bill", 4),
      today: "2026-03-07",
      states: ["delivered", "delivered", "delivered", "next"],
      next: { round: 4, name: "First True Bill", availableOn: "2026-03-07", early: false },
    },
    {
      name: "a true bill prepared: its mailing is next",
      records: [delivered(3, "2026-02-21", "2026-02-24"), prepared(4)],
      step: step("true-bill-mailing", 4),
      today: "2026-03-08",
      states: ["delivered", "prepared"],
      next: null,
    },
    {
      name: "a true bill mailed: its proof of delivery is next",
      records: [delivered(3, "2026-02-21", "2026-02-24"), mailed(4, "2026-03-09")],
      step: step("true-bill-proof", 4),
      today: "2026-03-10",
      states: ["delivered", "mailed"],
      next: null,
    },
    {
      name: "a true bill delivered: the next true bill waits for the true bill's window (30 days)",
      records: [delivered(3, "2026-02-21", "2026-02-24"), delivered(4, "2026-03-09", "2026-03-12")],
      step: step("true-bill", 5),
      today: "2026-03-20",
      states: ["delivered", "delivered", "next"],
      respondBy: ["2026-03-06", "2026-04-11", null],
      next: { round: 5, name: "Second True Bill", availableOn: "2026-04-12", early: true },
    },
  ])("$name", ({ records, step: next, today, states, respondBy, next: expected }) => {
    const timeline = timelineOf({ records, step: next, windows, today });
    expect(timeline.rows.map((row) => row.state)).toEqual(states);
    if (respondBy) expect(timeline.rows.map((row) => row.respondBy)).toEqual(respondBy);
    expect(timeline.next).toEqual(expected);
  });

  it("marks today after the rounds mailed by then, never above a round already delivered", () => {
    const records = [delivered(1, "2026-01-06", "2026-01-10"), delivered(2, "2026-02-02", "2026-02-05")];
    const at = (today: string) => timelineOf({ records, step: step("notice", 3), windows, today }).todayAfter;
    expect(at("2026-01-05")).toBe(0);
    expect(at("2026-01-11")).toBe(1);
    expect(at("2026-01-20")).toBe(1);
    expect(at("2026-01-31")).toBe(1);
    expect(at("2026-02-06")).toBe(2);
    expect(at("2026-02-19")).toBe(2);
    expect(at("2026-12-31")).toBe(2);
  });

  it("names each round's window by its kind", () => {
    expect([1, 2, 3, 4, 9].map(windowKindOf)).toEqual(["notice", "fault", "default", "true-bill", "true-bill"]);
  });

  it("counts calendar days across months and leap days", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-12-25", 10)).toBe("2027-01-04");
  });
});

describe("tracking numbers", () => {
  it.each([
    ["9400 1000 0000 0000 0000 00", "9400100000000000000000"],
    ["9400-1000-0000-0000-0000-0", "940010000000000000000"],
    ["70190000000000000000", "70190000000000000000"],
    [" ej123456789us ", "EJ123456789US"],
  ])("keeps %j as %j", (given, kept) => {
    expect(normaliseTracking(given)).toBe(kept);
    expect(trackingNumberSchema.parse(given)).toBe(kept);
  });

  it.each([
    ["", "Enter the tracking number"],
    [" - ", "Enter the tracking number"],
    ["12345", TRACKING_MESSAGE],
    ["12345678901234567890123", TRACKING_MESSAGE],
    ["RE123456789GB", TRACKING_MESSAGE],
    ["R1234567890US", TRACKING_MESSAGE],
  ])("refuses %j: %s", (given, message) => {
    const result = trackingNumberSchema.safeParse(given);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});

describe("response windows", () => {
  it.each([
    ["0", "A response window is at least 1 day"],
    ["400", "A response window is at most 365 days"],
    ["2.5", "Enter a whole number of days"],
    ["abc", "Enter a number of days"],
  ])("refuses %j: %s", (given, message) => {
    expect(windowDaysSchema.safeParse(given).error?.issues[0]?.message).toBe(message);
  });

  it("takes 1 to 365 days", () => {
    expect(windowDaysSchema.parse("1")).toBe(1);
    expect(windowDaysSchema.parse("365")).toBe(365);
  });
});
