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
 * The key a letter is sent with: the same for every try of one respondent's envelope of one
 * round, so however many requests send it the mail house makes one letter. A letter the mail
 * house refused (nothing was made) is tried again under the next attempt's key; an envelope
 * mailed again after one cancelled or returned has a key of its own.
 */
export function letterKey(letter: {
  entryId: string;
  round: number;
  slot: number;
  envelope?: number;
  attempt: number;
}): string {
  const envelope = letter.envelope ?? 1;
  const key = `mailing:${letter.entryId}:r${letter.round}:s${letter.slot}${envelope > 1 ? `:e${envelope}` : ""}`;
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

/** A calendar day (UTC), as the steps record dates. */
export const dayOfDate = (at: Date) => at.toISOString().slice(0, 10);

/** Whether the letter is a refusal that left nothing at the mail house, so it may be sent again. */
export const mayResend = (letter: { state: MailingState; letterId: string | null }) =>
  letter.state === "failed" && letter.letterId === null;

const STILL_GOING: ReadonlySet<MailingState> = new Set(["sending", "created", "mailed", "in_transit", "delivered"]);

/**
 * Whether a new envelope may follow this one to its respondent: this one came to nothing
 * (cancelled, returned, or refused after the mail house made it), and another order than the
 * one that paid for it asks, so sending one order again never makes a second envelope.
 */
export const mayMailAgain = (
  letter: { state: MailingState; letterId: string | null; orderId: string | null },
  orderId: string | null | undefined,
) => !STILL_GOING.has(letter.state) && !mayResend(letter) && Boolean(orderId) && letter.orderId !== orderId;

export const isLetterState = (state: MailingState): state is LetterState => state !== "sending";
