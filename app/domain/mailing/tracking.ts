/**
 * Where a mailed letter is, from the mail house's events. The events arrive late, twice, or in
 * another order than they happened (webhooks are delivered at least once and in no set order;
 * a poll reads the same events again), so a letter's state only ever moves forward along
 *
 *   created → mailed → in_transit → delivered | returned_to_sender
 *   created → cancelled | failed
 *
 * and an event that would move it back, or to where it is already, changes nothing.
 */

export const LETTER_STATES = [
  /** Accepted by the mail house, not yet mailed: it can still be cancelled before its deadline. */
  "created",
  /** Accepted by USPS (the "Mailed" scan): the mailing date. */
  "mailed",
  /** Between USPS's acceptance and the delivery: in transit, in the local area, out for delivery, re-routed. */
  "in_transit",
  "delivered",
  "returned_to_sender",
  /** Cancelled before it was printed, at the member's or an admin's request. */
  "cancelled",
  /** The mail house could not print or send it (a rendering failure, a refused address). */
  "failed",
] as const;
export type LetterState = (typeof LETTER_STATES)[number];

export const FINAL_STATES: ReadonlySet<LetterState> = new Set([
  "delivered",
  "returned_to_sender",
  "cancelled",
  "failed",
]);

/** How far along a state is: a letter moves only to a state further along. */
const STEP: Record<LetterState, number> = {
  created: 0,
  mailed: 1,
  in_transit: 2,
  delivered: 3,
  returned_to_sender: 3,
  cancelled: 3,
  failed: 3,
};

/**
 * Whether a letter in `from` may become `to`. A state may be skipped (a lost "mailed" event
 * leaves a letter created until "in transit" comes), but a letter that went into the mail can
 * no longer be cancelled or fail to print, and an ended letter stays as it ended.
 */
export function canMoveTo(from: LetterState, to: LetterState): boolean {
  if (FINAL_STATES.has(from) || STEP[to] <= STEP[from]) return false;
  if (to === "cancelled" || to === "failed") return from === "created";
  return true;
}

/** A letter's state and dates as the events so far have made them. */
export type LetterTrack = {
  state: LetterState;
  /** When USPS took it: the "mailed" event's time, or the first later event's when that one never came. */
  mailedAt: Date | null;
  deliveredAt: Date | null;
  returnedAt: Date | null;
  /** Why it was returned or failed, in the mail house's words. */
  reason: string | null;
  /** The newest event applied: what "lost" counts from. */
  lastEventAt: Date | null;
};

export type LetterEvent = {
  state: LetterState;
  occurredAt: Date;
  reason?: string | null;
};

export const newTrack = (): LetterTrack => ({
  state: "created",
  mailedAt: null,
  deliveredAt: null,
  returnedAt: null,
  reason: null,
  lastEventAt: null,
});

/**
 * The letter after one event, and whether it changed. An event that is no step forward (a
 * repeat, or one older than the state already reached) changes nothing, so applying a batch
 * in any order, or twice, ends in the same track.
 *
 * A letter that skips "mailed" takes its mailing date from the first event past it: the mail
 * was taken by then at the latest, and a later date only makes the respondent's window end later.
 */
export function applyLetterEvent(track: LetterTrack, event: LetterEvent): { track: LetterTrack; changed: boolean } {
  if (!canMoveTo(track.state, event.state)) return { track, changed: false };
  const at = event.occurredAt;
  const intoMail = STEP.mailed <= STEP[event.state] && event.state !== "cancelled" && event.state !== "failed";
  return {
    changed: true,
    track: {
      state: event.state,
      mailedAt: track.mailedAt ?? (intoMail ? at : null),
      deliveredAt: event.state === "delivered" ? at : track.deliveredAt,
      returnedAt: event.state === "returned_to_sender" ? at : track.returnedAt,
      reason: event.state === "returned_to_sender" || event.state === "failed" ? (event.reason ?? null) : track.reason,
      lastEventAt: track.lastEventAt && track.lastEventAt > at ? track.lastEventAt : at,
    },
  };
}

/** The track after a batch of events, oldest first whatever order they came in. */
export function trackOf(events: readonly LetterEvent[], start: LetterTrack = newTrack()): LetterTrack {
  return [...events]
    .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime())
    .reduce((track, event) => applyLetterEvent(track, event).track, start);
}

export type CancelCheck = { ok: true } | { ok: false; why: "in_the_mail" | "past_deadline" | "ended" };

/**
 * Whether the member can still cancel the letter: while the mail house has not printed it,
 * that is before its cancellation deadline (its send date), and only while it is created.
 */
export function cancelCheck(letter: { state: LetterState; cancelUntil: Date | null }, now: Date): CancelCheck {
  if (letter.state === "cancelled" || letter.state === "failed") return { ok: false, why: "ended" };
  if (letter.state !== "created") return { ok: false, why: "in_the_mail" };
  if (!letter.cancelUntil || now >= letter.cancelUntil) return { ok: false, why: "past_deadline" };
  return { ok: true };
}

/** Why a letter cannot be cancelled, as the page says it. */
export const CANCEL_REFUSALS: Record<Exclude<CancelCheck, { ok: true }>["why"], string> = {
  in_the_mail: "This letter is in the mail already: it can no longer be cancelled.",
  past_deadline: "This letter has gone to print: the time to cancel it has passed.",
  ended: "This letter was not sent, so there is nothing to cancel.",
};

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether the letter looks lost: on its way (created, mailed or in transit) and nothing heard
 * of it for `days` days, counted from its newest event, else from when it was due to be sent.
 * A lost letter is flagged to admins; it is not given up on, and a later event still applies.
 */
export function isLost(
  letter: Pick<LetterTrack, "state" | "lastEventAt"> & { sendDate: Date },
  now: Date,
  days: number,
): boolean {
  if (FINAL_STATES.has(letter.state)) return false;
  const since = letter.lastEventAt && letter.lastEventAt > letter.sendDate ? letter.lastEventAt : letter.sendDate;
  return now.getTime() - since.getTime() >= days * DAY_MS;
}
