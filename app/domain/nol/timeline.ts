import { NOTICE_ROUNDS, trueBillName } from "./rounds";
import type { Step } from "./steps";
import { NOTICE_NAMES } from "./steps";

/**
 * A version over time: each round's notice and each true bill with when it was mailed, when
 * it was delivered, how long the respondents have to answer (the response window) and the
 * day the next round may go out. Dates are calendar days (YYYY-MM-DD), as members record them.
 */

/** The kinds of round a response window is set for: Notice of Liability, of Fault, Default, a true bill. */
export const WINDOW_KINDS = ["notice", "fault", "default", "true-bill"] as const;
export type WindowKind = (typeof WINDOW_KINDS)[number];
export type ResponseWindows = Record<WindowKind, number>;

export const WINDOW_LABELS: Record<WindowKind, string> = {
  notice: "Notice of Liability",
  fault: "Notice of Fault",
  default: "Default",
  "true-bill": "True bill",
};

/** The shortest and longest window an admin may set, in days. */
export const WINDOW_DAYS = { min: 1, max: 365 } as const;

/** The window that follows a round: round 1 a notice, 2 a fault, 3 the default, then true bills. */
export function windowKindOf(round: number): WindowKind {
  if (round === 1) return "notice";
  if (round === 2) return "fault";
  if (round === NOTICE_ROUNDS) return "default";
  return "true-bill";
}

/** The name of a round on the timeline: "Round 2 Notice of Fault", "First True Bill". */
export function roundName(round: number): string {
  return round <= NOTICE_ROUNDS ? `Round ${round} ${NOTICE_NAMES[round]}` : trueBillName(round - NOTICE_ROUNDS);
}

/** What was recorded of a round whose notice or bill is made: mailed, delivered. */
export type RoundRecord = {
  round: number;
  mailedOn: string | null;
  /** Proof of delivery was recorded. */
  delivered: boolean;
  /** The day it was delivered, when the member gave it. */
  deliveredOn: string | null;
  /** Tracking numbers, one for each respondent it was mailed to. */
  tracking: string[];
  /** Where the round stands by the reading of its service: "sending" while its letters are at the mail house. */
  state?: "delivered" | "mailed" | "sending" | "prepared";
};

export type RoundState = "delivered" | "mailed" | "sending" | "prepared" | "next";

export type TimelineRow = {
  round: number;
  name: string;
  state: RoundState;
  mailedOn: string | null;
  deliveredOn: string | null;
  tracking: string[];
  window: WindowKind;
  windowDays: number;
  /** The last day of the respondents' window: delivery plus the window. */
  respondBy: string | null;
  /** The day the round after this one may go out: the day after the window closes. */
  nextFrom: string | null;
};

export type Timeline = {
  today: string;
  rows: TimelineRow[];
  /** How many rows lie before today on the timeline (today's mark goes after them). */
  todayAfter: number;
  /** The next round and when it may go out; null once no round is due (a step that is not a new round). */
  next: { round: number; name: string; availableOn: string | null; early: boolean } | null;
};

/**
 * A round's tracking numbers as an entry keeps them: one per respondent's envelope, by slot
 * (`{ "1": "RR…", "9": "94…" }`), or the round's one number where only that was given.
 */
export function trackingNumbers(bySlot: unknown, single: unknown): string[] {
  if (bySlot && typeof bySlot === "object" && !Array.isArray(bySlot)) {
    const numbers = Object.entries(bySlot)
      .filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== "")
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([, number]) => number);
    if (numbers.length > 0) return numbers;
  }
  return typeof single === "string" && single ? [single] : [];
}

/** A calendar day plus some days. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Today as a calendar day (UTC), for the timeline's "today" mark and the windows. */
export function dayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * The timeline of a version, from what each round recorded and the next step (spec §4). A
 * delivered round opens its window on its delivery day; the round after it may go out the day
 * after the window's last day. A delivery recorded without its day opens no window: the next
 * round is not held back for a date nobody gave. The next round is "early" while its day has
 * not come.
 */
export function timelineOf(input: {
  records: RoundRecord[];
  step: Pick<Step, "kind" | "round">;
  windows: ResponseWindows;
  today: string;
}): Timeline {
  const { records, step, windows, today } = input;
  const rows: TimelineRow[] = records.map((record) => {
    const window = windowKindOf(record.round);
    const windowDays = windows[window];
    const respondBy = record.delivered && record.deliveredOn ? addDays(record.deliveredOn, windowDays) : null;
    return {
      round: record.round,
      name: roundName(record.round),
      state: record.state ?? (record.delivered ? "delivered" : record.mailedOn ? "mailed" : "prepared"),
      mailedOn: record.mailedOn,
      deliveredOn: record.deliveredOn,
      tracking: record.tracking,
      window,
      windowDays,
      respondBy,
      nextFrom: respondBy ? addDays(respondBy, 1) : null,
    };
  });
  const next = nextRound(rows, step, today);
  if (next && !rows.some((row) => row.round === next.round)) {
    const window = windowKindOf(next.round);
    rows.push({
      round: next.round,
      name: next.name,
      state: "next",
      mailedOn: null,
      deliveredOn: null,
      tracking: [],
      window,
      windowDays: windows[window],
      respondBy: null,
      nextFrom: null,
    });
  }
  const todayAfter = rows.findIndex((row) => !startedBy(row, today));
  return { today, rows, todayAfter: todayAfter === -1 ? rows.length : todayAfter, next };
}

/**
 * The round the next step opens, if it opens one: a notice, or a true bill (Setup Billing
 * comes before the first true bill, and the default's window runs meanwhile). A mailing or
 * proof step finishes the round in hand: no new round is due.
 */
function nextRound(rows: TimelineRow[], step: Pick<Step, "kind" | "round">, today: string): Timeline["next"] {
  const round =
    step.kind === "notice" || step.kind === "true-bill"
      ? step.round
      : step.kind === "setup-billing"
        ? NOTICE_ROUNDS + 1
        : null;
  if (round === null) return null;
  const availableOn = rows.filter((row) => row.round < round).at(-1)?.nextFrom ?? null;
  return { round, name: roundName(round), availableOn, early: availableOn !== null && today < availableOn };
}

/**
 * The next round, when the step in hand makes it before its day: what "Send it early anyway"
 * is asked for. Setup Billing may be done meanwhile; it is the First True Bill that waits.
 */
export function earlyRound<Next extends Timeline["next"]>(next: Next, step: Pick<Step, "round">): Next | null {
  return next?.early && next.round === step.round ? next : null;
}

/**
 * Whether a round had begun by today: mailed on a day up to today (a delivered round always
 * has). Today's mark goes before the first round that had not, so it never stands above a
 * round already mailed or delivered.
 */
function startedBy(row: TimelineRow, today: string): boolean {
  const began = row.mailedOn ?? (row.state === "delivered" ? row.deliveredOn : null);
  return row.state === "delivered" ? !began || began <= today : began !== null && began <= today;
}
