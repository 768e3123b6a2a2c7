import { NOTICE_ROUNDS } from "./rounds";
import { addDays, type Timeline } from "./timeline";

/**
 * The e-mails that remind a creator of a version's days (decision 035): the next round may go
 * out, a mailing still has no proof of delivery, a true bill is due in a few days. Each is sent
 * once for its version, kind and round; members turn each kind off on their profile.
 */

export const REMINDER_KINDS = ["next-round", "no-proof", "true-bill"] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/** What each kind is called where a member turns it on or off. */
export const REMINDER_LABELS: Record<ReminderKind, string> = {
  "next-round": "When the next round can go out",
  "no-proof": "When a mailing still has no proof of delivery",
  "true-bill": "A few days before a true bill is due",
};

/** When the reminders that wait for a number of days are due. */
export type ReminderTiming = {
  /** Days after a mailing with no proof of delivery recorded. */
  proofAfterDays: number;
  /** Days before the day a true bill may go out. */
  billAheadDays: number;
};

/**
 * A reminder that is due is sent only while its day is this recent: a version left alone for
 * months is not woken by a reminder about a day long past (nor is every old version when
 * reminders are first switched on).
 */
export const REMINDER_STALE_DAYS = 14;

export type DueReminder = {
  kind: ReminderKind;
  /** The round it is about: the next round, the round mailed, the true bill's round. */
  round: number;
  /** The day it became due. */
  dueOn: string;
};

/** The reminders a version's timeline makes due today, oldest day first. */
export function dueReminders(timeline: Timeline, timing: ReminderTiming): DueReminder[] {
  const { today, next } = timeline;
  const due: DueReminder[] = [];
  for (const row of timeline.rows) {
    if (row.state === "mailed" && row.mailedOn) {
      due.push({ kind: "no-proof", round: row.round, dueOn: addDays(row.mailedOn, timing.proofAfterDays) });
    }
  }
  if (next?.availableOn) {
    due.push({ kind: "next-round", round: next.round, dueOn: next.availableOn });
    if (next.round > NOTICE_ROUNDS) {
      const ahead = addDays(next.availableOn, -timing.billAheadDays);
      // Ahead of the day only: on the day itself the next-round reminder says it.
      if (today < next.availableOn) due.push({ kind: "true-bill", round: next.round, dueOn: ahead });
    }
  }
  const oldest = addDays(today, -REMINDER_STALE_DAYS);
  return due.filter((reminder) => reminder.dueOn <= today && reminder.dueOn >= oldest).sort(byDay);
}

const byDay = (a: DueReminder, b: DueReminder) => (a.dueOn < b.dueOn ? -1 : a.dueOn > b.dueOn ? 1 : 0);

/** The e-mail of a reminder: its subject and its first line. */
export function reminderWords(
  reminder: Pick<DueReminder, "kind">,
  /** The round's name and its days as the mail writes them ("Mar 5, 2026"). */
  round: { name: string; mailed: string | null; available: string | null },
  version: string,
): { subject: string; lead: string } {
  switch (reminder.kind) {
    case "next-round":
      return {
        subject: `Your ${round.name} can go out now`,
        lead: `The respondents' time to answer the last round of "${version}" has run out: your ${round.name} can go out now.`,
      };
    case "no-proof":
      return {
        subject: `No proof of delivery yet for your ${round.name}`,
        lead: `Your ${round.name} of "${version}" was mailed on ${round.mailed ?? "its mailing day"} and has no proof of delivery yet. Record the delivery when the proof arrives: the respondents' time to answer starts then.`,
      };
    case "true-bill":
      return {
        subject: `Your ${round.name} is due on ${round.available ?? "its day"}`,
        lead: `Your ${round.name} of "${version}" may go out from ${round.available ?? "its day"}: prepare it now.`,
      };
  }
}
