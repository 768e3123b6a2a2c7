import { providerFailure, providerRefusal } from "../errors";
import type { DocumentRequest } from "../requests";

/**
 * Online notarizing: one interface, two adapters (Proof's Business API, and the built-in
 * sandbox notary).
 *
 * A transaction carries one PDF to one signer. The signer opens the transaction's access URL,
 * meets a notary and signs there (at Proof, or on the sandbox's own signer page); the provider
 * tells us through events (Proof's signed webhooks, the sandbox's kept events), and
 * `getTransaction` reads the state at any time. Why it is shaped so:
 * docs/decisions/022-notary-transactions-and-events.md.
 */

export type NotaryProviderName = "sandbox" | "proof";

/**
 * A transaction's status in our terms (the notice's `nz_status`). The provider's own, finer
 * status is kept beside it as `detailedStatus` (`nz_status2`).
 * - draft: made but not sent to the signer; it can still be changed;
 * - sent: the signer has the access link and has not acted yet;
 * - in_progress: the signer opened it, is meeting the notary, or has partly signed;
 * - completed: notarized; `notarizedDocument` returns the PDF;
 * - expired: the signer did not finish in time;
 * - cancelled: ended without a notarization (declined, or the notary rejected the document).
 */
export const NOTARY_STATUSES = ["draft", "sent", "in_progress", "completed", "expired", "cancelled"] as const;
export type NotaryStatus = (typeof NOTARY_STATUSES)[number];

export type NotaryTransaction = {
  /** The provider's id (the notice's `nz_id`): Proof's `ot_…`, the sandbox's `ot_sb_…`. */
  id: string;
  status: NotaryStatus;
  /** The provider's own status as it gave it (Proof's `detailed_status`). */
  detailedStatus: string;
  /** Where the signer goes (Proof's signer `transaction_access_link`); null while the provider gives none (a draft). */
  accessUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export type NotarySigner = { name: string; email: string };

/**
 * One transaction to make. Its key makes a retried create one transaction where the provider
 * keeps keys (the sandbox, until that transaction is deleted); Proof keeps it as external_id.
 */
export type CreateTransactionInput = DocumentRequest & {
  /** The document's file name as the signer and the notary see it ("notice-round-1.pdf"). */
  documentName: string;
  signer: NotarySigner;
  /** Made but not sent: `updateTransaction(id, { send: true })` sends it. */
  draft: boolean;
};

export type UpdateTransactionInput = {
  /** Sends a draft to its signer. */
  send?: boolean;
  /** Replaces the signer of a draft. */
  signer?: NotarySigner;
};

/**
 * A change the provider tells us about, in our terms. Both adapters emit these and one handler
 * applies them. An event is a hint as much as a record: Proof's webhooks arrive at least once
 * and in no set order, so the handler should read the transaction (`getTransaction`) rather
 * than trust the order in which events came.
 */
export type NotaryEvent = {
  /** Unique per delivery content: stored with a unique key, so a replay changes nothing. */
  id: string;
  provider: NotaryProviderName;
  /** The provider's own name for it ("transaction.completed"), kept for the record. */
  providerType: string;
  /** Null for an event about no transaction (Proof's `notary.*`): acknowledge it and move on. */
  transactionId: string | null;
  /** What the event says the transaction became; null when it does not say (read the transaction). */
  status: NotaryStatus | null;
  detailedStatus: string | null;
  /** The transaction is gone at the provider (deleted there or through `deleteTransaction`). */
  deleted: boolean;
  occurredAt: Date;
};

/** The provider cannot be reached, failed (5xx), is rate-limiting us or did not answer in time: try again later. */
export class NotaryUnavailable extends providerFailure("notary", "provider_unavailable", "NotaryUnavailable") {}

/** The provider refused the request (4xx); the message is the provider's own. */
export class NotaryRefused extends providerRefusal("notary", "notary_refused", "NotaryRefused") {}

/** A webhook delivery whose signature does not check out (answer 400), or that the sandbox cannot have sent. */
export class InvalidNotaryWebhook extends providerFailure("notary", "invalid_signature", "InvalidNotaryWebhook") {}

export interface NotaryProvider {
  readonly name: NotaryProviderName;

  createTransaction(input: CreateTransactionInput): Promise<NotaryTransaction>;

  /** The transaction as the provider has it now; null when it is gone there (deleted: a 404). */
  getTransaction(id: string): Promise<NotaryTransaction | null>;

  /** Changes a draft's signer and/or sends it; null when the transaction is gone. */
  updateTransaction(id: string, input: UpdateTransactionInput): Promise<NotaryTransaction | null>;

  /** Deletes it at the provider; one already gone is not an error. */
  deleteTransaction(id: string): Promise<void>;

  /** The notarized PDF once the transaction is completed; null before that, or when it is gone. */
  notarizedDocument(id: string): Promise<Uint8Array | null>;

  /**
   * Reads a webhook delivery: the raw body as received and the request's headers. Throws
   * InvalidNotaryWebhook for a missing or bad signature or a body it cannot read.
   */
  readWebhook(rawBody: string, headers: Headers): NotaryEvent;
}

/** Where the sandbox's signer is on the signer page. */
export type SignerStep = "not_sent" | "meet" | "sign" | "done" | "closed";

export type SignerView =
  | { kind: "removed" }
  | {
      kind: "open";
      transaction: NotaryTransaction;
      documentName: string;
      signerName: string;
      step: SignerStep;
    };

/** The sandbox's own calls: its signer page, its admins' and tests' "deleted at the provider", its events. */
export type SandboxNotary = NotaryProvider & {
  readonly name: "sandbox";
  /**
   * What the signer page shows; null for a transaction that never existed. The signer's first
   * visit to a sent transaction marks it received, as opening Proof's link does.
   */
  signerView(id: string): Promise<SignerView | null>;
  /** The PDF the signer page shows: the original, or the notarized one once signed; null when gone. */
  signerDocument(id: string): Promise<{ pdf: Uint8Array; fileName: string; notarized: boolean } | null>;
  /** The signer meets the (sandbox) notary. */
  meetNotary(id: string): Promise<NotaryTransaction | null>;
  /** The signer signs: the transaction completes and the notarized PDF is made. */
  sign(id: string, now?: Date): Promise<NotaryTransaction | null>;
  /** Removes it on the provider's side, as an admin of Proof's account could. */
  deleteAtProvider(id: string): Promise<void>;
  /** Events not yet handed to the app, oldest first. */
  undeliveredEvents(limit?: number): Promise<NotaryEvent[]>;
  markDelivered(eventId: string): Promise<void>;
};
