import { describe, expect, it } from "vitest";
import { reminderChoicesSchema, unsubscribeLinkSchema } from "./reminder-inputs";
import { dueReminders, REMINDER_STALE_DAYS, reminderWords, type DueReminder } from "./reminders";
import type { Step } from "./steps";
import { delivered, mailed, step, threeRounds } from "../../../tests/helpers/round-records";
import { addDays, timelineOf, type RoundRecord } from "./timeline";

const windows = { notice: 21, fault: 14, default: 10, "true-bill": 30 };
const timing = { proofAfterDays: 10, billAheadDays: 3 };

const due = (records: RoundRecord[], next: Pick<Step, "kind" | "round">, today: string) =>
  dueReminders(timelineOf({ records, step: next, windows, today }), timing);

describe("the reminders a version's timeline makes due", () => {
  it.each<{
    name: string;
    records: RoundRecord[];
    step: Pick<Step, "kind" | "round">;
    today: string;
    due: DueReminder[];
  }>([
    {
      name: "round 1 mailed 9 days ago: nothing yet",
      records: [mailed(1, "2026-01-06")],
      step: step("proof", 1),
      today: "2026-01-15",
      due: [],
    },
    {
      name: "round 1 mailed 10 days ago with no proof: the no-proof reminder",
      records: [mailed(1, "2026-01-06")],
      step: step("proof", 1),
      today: "2026-01-16",
      due: [{ kind: "no-proof", round: 1, dueOn: "2026-01-16" }],
    },
    {
      name: "round 1 delivered, its window still open (to Jan 31): nothing",
      records: [delivered(1, "2026-01-06", "2026-01-10")],
      step: step("notice", 2),
      today: "2026-01-31",
      due: [],
    },
    {
      name: "round 1's window closed: Round 2 can go out",
      records: [delivered(1, "2026-01-06", "2026-01-10")],
      step: step("notice", 2),
      today: "2026-02-01",
      due: [{ kind: "next-round", round: 2, dueOn: "2026-02-01" }],
    },
    {
      name: "round 2 made but not mailed: the next round is not a notice due, nothing",
      records: [delivered(1, "2026-01-06", "2026-01-10"), { ...mailed(2, "2026-02-02"), mailedOn: null }],
      step: step("mailing", 2),
      today: "2026-02-20",
      due: [],
    },
    {
      name: "round 2 mailed, 12 days without proof: the no-proof reminder from its tenth day",
      records: [delivered(1, "2026-01-06", "2026-01-10"), mailed(2, "2026-02-02")],
      step: step("proof", 2),
      today: "2026-02-14",
      due: [{ kind: "no-proof", round: 2, dueOn: "2026-02-12" }],
    },
    {
      name: "three rounds delivered, Setup Billing next, 4 days before the First True Bill's day: nothing",
      records: threeRounds,
      step: step("setup-billing", null),
      today: "2026-03-03",
      due: [],
    },
    {
      name: "Setup Billing next, 3 days before the First True Bill's day: the true-bill reminder",
      records: threeRounds,
      step: step("setup-billing", null),
      today: "2026-03-04",
      due: [{ kind: "true-bill", round: 4, dueOn: "2026-03-04" }],
    },
    {
      name: "the First True Bill may go out on Mar 7: on Mar 4 the true-bill reminder is due",
      records: threeRounds,
      step: step("true-bill", 4),
      today: addDays("2026-03-07", -3),
      due: [{ kind: "true-bill", round: 4, dueOn: "2026-03-04" }],
    },
    {
      name: "on the First True Bill's day: the next-round reminder only",
      records: threeRounds,
      step: step("true-bill", 4),
      today: "2026-03-07",
      due: [{ kind: "next-round", round: 4, dueOn: "2026-03-07" }],
    },
    {
      name: "a true bill delivered Mar 10 (30 days to answer): the Second True Bill's reminder 3 days ahead",
      records: [...threeRounds, delivered(4, "2026-03-08", "2026-03-10")],
      step: step("true-bill", 5),
      today: "2026-04-08",
      due: [{ kind: "true-bill", round: 5, dueOn: "2026-04-07" }],
    },
    {
      name: "its window closed: the Second True Bill can go out",
      records: [...threeRounds, delivered(4, "2026-03-08", "2026-03-10")],
      step: step("true-bill", 5),
      today: "2026-04-10",
      due: [{ kind: "next-round", round: 5, dueOn: "2026-04-10" }],
    },
    {
      name: `a window that closed more than ${REMINDER_STALE_DAYS} days ago: stale, nothing`,
      records: [delivered(1, "2026-01-06", "2026-01-10")],
      step: step("notice", 2),
      today: addDays("2026-02-01", REMINDER_STALE_DAYS + 1),
      due: [],
    },
    {
      name: `a window that closed exactly ${REMINDER_STALE_DAYS} days ago: still sent`,
      records: [delivered(1, "2026-01-06", "2026-01-10")],
      step: step("notice", 2),
      today: addDays("2026-02-01", REMINDER_STALE_DAYS),
      due: [{ kind: "next-round", round: 2, dueOn: "2026-02-01" }],
    },
    {
      name: "no entry: Round 1 has no day to wait for, nothing",
      records: [],
      step: step("notice", 1),
      today: "2026-01-05",
      due: [],
    },
  ])("$name", ({ records, step: next, today, due: expected }) => {
    expect(due(records, next, today)).toEqual(expected);
  });

  it("counts the proof reminder's and the true bill's days from the timing given", () => {
    const timeline = timelineOf({ records: threeRounds, step: step("true-bill", 4), windows, today: "2026-02-28" });
    expect(dueReminders(timeline, { proofAfterDays: 10, billAheadDays: 7 })).toEqual([
      { kind: "true-bill", round: 4, dueOn: "2026-02-28" },
    ]);
    const mailedOnly = timelineOf({
      records: [mailed(1, "2026-01-06")],
      step: step("proof", 1),
      windows,
      today: "2026-01-09",
    });
    expect(dueReminders(mailedOnly, { proofAfterDays: 3, billAheadDays: 3 })).toEqual([
      { kind: "no-proof", round: 1, dueOn: "2026-01-09" },
    ]);
  });
});

describe("a reminder's words", () => {
  const round = { name: "Round 2 Notice of Fault", mailed: "Feb 2, 2026", available: "Mar 1, 2026" };
  it.each([
    [
      "next-round",
      "Your Round 2 Notice of Fault can go out now",
      /has run out: your Round 2 Notice of Fault can go out now/,
    ],
    ["no-proof", "No proof of delivery yet for your Round 2 Notice of Fault", /was mailed on Feb 2, 2026/],
    ["true-bill", "Your Round 2 Notice of Fault is due on Mar 1, 2026", /may go out from Mar 1, 2026/],
  ] as const)("%s: %s", (kind, subject, lead) => {
    const words = reminderWords({ kind }, round, "Main");
    expect(words.subject).toBe(subject);
    expect(words.lead).toMatch(lead);
    expect(words.lead).toContain('"Main"');
  });
});

describe("the reminders' inputs", () => {
  const token = "a".repeat(43);
  const member = "7d6f0a3e-8a51-4c1e-9a5e-0b3a2c1d4e5f";
  it.each([
    [{ member, kind: "next-round", token }, true],
    [{ member, kind: "weekly-digest", token }, false],
    [{ member: "not-a-uuid", kind: "no-proof", token }, false],
    [{ member, kind: "no-proof", token: "short" }, false],
    [{ member, kind: "no-proof", token: `${"a".repeat(42)}=` }, false],
    [{ member, kind: "true-bill" }, false],
  ])("an unsubscribe link %j is read: %s", (query, ok) => {
    expect(unsubscribeLinkSchema.safeParse(query).success).toBe(ok);
  });

  it.each([
    [[], []],
    [["no-proof"], ["no-proof"]],
    ["true-bill", ["true-bill"]],
    [
      ["next-round", "no-proof", "true-bill"],
      ["next-round", "no-proof", "true-bill"],
    ],
  ])("the profile's choices %j are the kinds %j", (kinds, expected) => {
    expect(reminderChoicesSchema.parse({ intent: "reminders", kinds })).toEqual({
      intent: "reminders",
      kinds: expected,
    });
  });

  it("refuses a kind that is not a reminder's, with a message", () => {
    const result = reminderChoicesSchema.safeParse({ intent: "reminders", kinds: ["next-round", "spam"] });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Choose among the reminders listed");
  });
});
