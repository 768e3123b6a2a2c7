import { LETTER_STATES, type LetterState } from "./tracking";

/**
 * A round mailed from the app: one letter per respondent, and what the letters make of the
 * round's record (its tracking numbers, its mailing date, its proof of delivery), as the member
 * would have typed them on the mailing and proof steps. Why it is shaped so:
 * docs/decisions/049-mailings-exactly-once.md.
 */

/**
 * A letter's state on our side: "sending" while the mail house has not yet answered for it (a
 * request is sending it, or its answer was lost), then the tracking states of tracking.ts.
 */
export const MAILING_STATES = ["sending", ...LETTER_STATES] as const;
export type MailingState = (typeof MAILING_STATES)[number];

/**
 * The key a letter is sent with: the same for every try of one respondent's letter of one
 * round, so however many requests send it the mail house makes one letter. A letter the mail
 * house refused (nothing was made) is tried again under the next attempt's key.
 */
export function letterKey(letter: { entryId: string; round: number; slot: number; attempt: number }): string {
  const key = `mailing:${letter.entryId}:r${letter.round}:s${letter.slot}`;
  return letter.attempt > 1 ? `${key}:a${letter.attempt}` : key;
}

/** How long a letter may stay "sending" under one request before another may take it over. */
export const SENDING_CLAIM_MS = 2 * 60_000;

/**
 * How long after a letter was first sent a lost answer may still be asked of the mail house
 * with its key: Lob keeps a key for 24 hours, and a key it has forgotten would make a second
 * letter. Past this, the letter waits for an admin.
 */
export const RECOVERABLE_FOR_MS = 20 * 60 * 60_000;

export type RoundLetter = {
  slot: number;
  state: MailingState;
  trackingNumber: string | null;
  mailedAt: Date | null;
  deliveredAt: Date | null;
};

/** The letters that are going to a respondent: not cancelled, not failed, not waiting on a send. */
const onTheirWay = (letters: readonly RoundLetter[]) =>
  letters.filter((letter) => letter.state !== "cancelled" && letter.state !== "failed" && letter.state !== "sending");

/** A calendar day (UTC), as the steps record dates. */
export const dayOfDate = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The round's tracking numbers by slot, as the mailing step keeps them: each letter on its way
 * that has one. A cancelled letter's number goes: that envelope is not mailed.
 */
export function roundTracking(letters: readonly RoundLetter[]): Record<string, string> {
  return Object.fromEntries(
    onTheirWay(letters)
      .filter((letter) => letter.trackingNumber)
      .sort((a, b) => a.slot - b.slot)
      .map((letter) => [String(letter.slot), letter.trackingNumber!]),
  );
}

/**
 * The round's mailing day: the first day USPS took one of its letters. A round mailed in
 * several envelopes was mailed when its first went, as a member typing one date would say.
 */
export function roundMailedOn(letters: readonly RoundLetter[]): string | null {
  const days = onTheirWay(letters)
    .flatMap((letter) => (letter.mailedAt ? [dayOfDate(letter.mailedAt)] : []))
    .sort();
  return days[0] ?? null;
}

/**
 * The round's delivery day, once every letter on its way is delivered: the last delivery, from
 * which every respondent has had the whole window. Null while one is still on its way or came
 * back (a respondent not served is the member's to decide on).
 */
export function roundDeliveredOn(letters: readonly RoundLetter[]): string | null {
  const going = onTheirWay(letters);
  if (going.length === 0 || going.some((letter) => letter.state !== "delivered" || !letter.deliveredAt)) return null;
  return going
    .map((letter) => dayOfDate(letter.deliveredAt!))
    .sort()
    .at(-1)!;
}

/** Whether the letter is a refusal that left nothing at the mail house, so it may be sent again. */
export const mayResend = (letter: { state: MailingState; letterId: string | null }) =>
  letter.state === "failed" && letter.letterId === null;

export const isLetterState = (state: MailingState): state is LetterState => state !== "sending";
