import type { Deliverability, PostalAddress } from "~/domain/mailing/address";
import type { MailingPrices, MailingQuote } from "~/domain/mailing/quote";
import type { LetterState } from "~/domain/mailing/tracking";
import { providerFailure, providerRefusal } from "../errors";
import type { DocumentRequest } from "../requests";

/**
 * Print and mail: one interface, two adapters (Lob's Print & Mail API, and the built-in
 * sandbox mail house).
 *
 * A letter is one PDF to one recipient from the member's return address, sent by USPS
 * Certified Mail with an electronic return receipt. The mail house prints it after its send
 * date (until then it can be cancelled), hands it to USPS, and tells us of each scan through
 * events (Lob's signed webhooks, the sandbox's kept events); `listEvents` reads them again for
 * a poll, since a webhook can be lost. Events are hints in any order: the rules of
 * app/domain/mailing/tracking.ts make a repeated or older one change nothing. Why it is shaped
 * so: docs/decisions/048-mail-house.md.
 */

export type MailHouseName = "sandbox" | "lob";

export { DELIVERABILITIES, type Deliverability } from "~/domain/mailing/address";

export type AddressVerification = {
  deliverability: Deliverability;
  /** The address as USPS's records write it (standardized, corrected); null when nothing matched. */
  standardized: PostalAddress | null;
  /** The standardized address differs from the one given in more than case and spacing: ask the member. */
  corrected: boolean;
  /** The provider's own word for it, kept for the record. */
  providerResult: string;
};

/**
 * One letter to send, its PDF as printed: US Letter pages, the addresses where the window
 * envelope shows them. Its key makes a retried send one letter: Lob keeps keys for 24 hours (its
 * `Idempotency-Key`), the sandbox as long as the letter; the mail house keeps up to 20 short
 * metadata pairs.
 */
export type SendLetterInput = DocumentRequest & {
  from: PostalAddress;
  to: PostalAddress;
  /** What the letter is, for the mail house's own lists ("Notice, round 1, to Officer Reyes"). */
  description: string;
};

/** A tracking event in our terms, as a webhook or a poll tells it. */
export type MailEvent = {
  /** Unique per event at its provider: stored with a unique key, so a replay changes nothing. */
  id: string;
  provider: MailHouseName;
  /** The provider's own name for it ("letter.certified.delivered", or a tracking event's "Delivered"), kept for the record. */
  providerType: string;
  /** Null for an event about no letter: acknowledge it and move on. */
  letterId: string | null;
  /** What the event says the letter became; null when it says nothing of its state (a rendered PDF, a viewed QR code). */
  state: LetterState | null;
  /** Why it was returned or failed, or what the carrier noted, in the provider's words. */
  reason: string | null;
  /** When it happened: USPS's scan time where the provider gives it. */
  occurredAt: Date;
};

export type MailedLetter = {
  /** The provider's id: Lob's `ltr_…`, the sandbox's `ltr_sb_…`. */
  id: string;
  /** Where it is, from its tracking events so far. */
  state: LetterState;
  /** USPS's certified tracking number (20 to 22 digits); null until the provider gives one. */
  trackingNumber: string | null;
  /** When it goes to print: it can be cancelled until then. */
  sendDate: Date;
  /** The provider's estimate, as a calendar date ("2026-12-04"). */
  expectedDeliveryDate: string | null;
  createdAt: Date;
  /** Its tracking events in our terms, oldest first. */
  events: MailEvent[];
};

/** The mail house cannot be reached, failed (5xx), is rate-limiting us or did not answer in time: nothing was sent, try again. */
export class MailHouseUnavailable extends providerFailure(
  "mailhouse",
  "provider_unavailable",
  "MailHouseUnavailable",
) {}

/** The mail house refused the request (4xx); the message is its own, and `providerCode` its code. */
export class MailRefused extends providerRefusal("mailhouse", "mail_refused", "MailRefused") {}

/** A webhook delivery whose signature does not check out or is stale (answer 400), or that the sandbox cannot have sent. */
export class InvalidMailWebhook extends providerFailure("mailhouse", "invalid_signature", "InvalidMailWebhook") {}

export interface MailHouse {
  readonly name: MailHouseName;

  /** USPS's judgement of the address and its standardized form: shown to the member before anything is sent. */
  verifyAddress(address: PostalAddress): Promise<AddressVerification>;

  /**
   * What mailing to these recipients costs the member. Neither adapter's provider prices over
   * its API, so both quote the settings' price; a provider with live prices answers here.
   */
  quote(input: { recipients: readonly string[]; prices: MailingPrices }): Promise<MailingQuote>;

  /** Sends one letter, certified with an electronic return receipt. */
  sendLetter(input: SendLetterInput): Promise<MailedLetter>;

  /** The letter as the provider has it now; null when it has no such letter. */
  getLetter(id: string): Promise<MailedLetter | null>;

  /**
   * Cancels it before its send date. Throws MailRefused once it can no longer be cancelled;
   * one cancelled already is no error.
   */
  cancelLetter(id: string): Promise<void>;

  /**
   * Reads a webhook delivery: the raw body as received and the request's headers, at `now`.
   * Throws InvalidMailWebhook for a missing, bad or stale signature or a body it cannot read.
   */
  readWebhook(rawBody: string, headers: Headers, now?: Date): MailEvent;

  /** The letter's events as the provider has them now, oldest first: what a poll for lost webhooks reads. */
  listEvents(letterId: string): Promise<MailEvent[]>;
  /**
   * The electronic return receipt of a delivered letter (a PDF: USPS's record of the delivery and
   * the signature), where the mail house gives one; null where it does not, or not yet.
   */
  returnReceipt(letterId: string): Promise<Uint8Array | null>;
}

/** The sandbox's own calls: its clock's steps, its events, and what it "printed". */
export type SandboxMailHouse = MailHouse & {
  readonly name: "sandbox";
  /** Moves every letter on its way as far as its schedule says by `now`, writing an event for each step. */
  advance(now?: Date): Promise<number>;
  /** The PDF it was given, as it "printed" it; null for no such letter. */
  printed(id: string): Promise<Uint8Array | null>;
  /** Events not yet handed to the app, oldest first. */
  undeliveredEvents(limit?: number): Promise<MailEvent[]>;
  markDelivered(eventId: string): Promise<void>;
};
