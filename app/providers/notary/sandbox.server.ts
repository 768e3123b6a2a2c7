import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { sandboxObjects } from "~/db/schema";
import { readLockedObject, readObject, sandboxEventFeed, writeObject, type SandboxTx } from "../sandbox-objects.server";
import { notarizedPdf, readablePdf } from "./certificate.server";
import {
  InvalidNotaryWebhook,
  NotaryRefused,
  type NotaryEvent,
  type NotarySigner,
  type NotaryStatus,
  type NotaryTransaction,
  type SandboxNotary,
  type SignerStep,
} from "./types";

/**
 * The built-in notary: no account, no network. It keeps its transactions in `sandbox_objects`
 * as Proof keeps them on its side, and its signer page (/notary/sandbox/{id}) walks them
 * through Proof's steps: sent to the signer, received (opened), the meeting with the notary,
 * completed. Signing makes the "notarized" PDF: the document with the notary's mark on every
 * page, a stamp, and a certificate page that says it is no legal notarization. Each change writes its event in the same
 * transaction; the app takes them with `undeliveredEvents` and `markDelivered`, as the payments
 * sandbox's are taken.
 */

const TRANSACTION = "notary_transaction";
const DOCUMENT = "notary_document";
const EVENT = "notary_event";
const IDEMPOTENCY = "notary_idempotency";

/** Proof's detailed statuses where Proof documents one, and the sandbox's own name for the meeting. */
export const SANDBOX_DETAILED = {
  draft: "draft",
  sent: "sent_to_signer",
  received: "received",
  meeting: "meeting_in_progress",
  completed: "completed",
} as const;

type Stored = {
  id: string;
  status: NotaryStatus;
  detailedStatus: string;
  documentName: string;
  signer: NotarySigner;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
  signedAt: string | null;
  /** Deleted (by the app, or "at the provider"): kept so the signer page can say so. */
  deleted: boolean;
};

type StoredDocument = { original: string; notarized: string | null };
type StoredEvent = { event: NotaryEvent; delivered: boolean };

/** 128 random bits: the access URL is the signer's only key to the page. */
const newTransactionId = () => `ot_sb_${randomBytes(16).toString("base64url")}`;

export const SANDBOX_TRANSACTION_ID = /^ot_sb_[A-Za-z0-9_-]{22}$/;

// Event ids sort in the order the events happened, as the payments sandbox's do.
let eventSequence = 0;
const newEventId = () =>
  `nev_sb_${Date.now().toString(36).padStart(9, "0")}${(eventSequence++ % 1_000_000).toString().padStart(6, "0")}_${randomBytes(6).toString("base64url")}`;

const documentId = (transactionId: string) => `${transactionId}.pdf`;

function stepOf(stored: Stored): SignerStep {
  if (stored.status === "draft") return "not_sent";
  if (stored.status === "completed") return "done";
  if (stored.status === "expired" || stored.status === "cancelled") return "closed";
  return stored.detailedStatus === SANDBOX_DETAILED.meeting ? "sign" : "meet";
}

export function sandboxNotary(db: Database, baseUrl: string): SandboxNotary {
  type Tx = SandboxTx;

  function transactionOf(stored: Stored): NotaryTransaction {
    return {
      id: stored.id,
      status: stored.status,
      detailedStatus: stored.detailedStatus,
      accessUrl: stored.status === "draft" ? null : `${baseUrl}/notary/sandbox/${stored.id}`,
      createdAt: new Date(stored.createdAt),
      updatedAt: new Date(stored.updatedAt),
    };
  }

  /** Saves the transaction's new state and the event telling the app about it. */
  async function save(tx: Tx, stored: Stored, providerType: string, now: Date): Promise<Stored> {
    const next = { ...stored, updatedAt: now.toISOString() };
    await writeObject(tx, next.id, TRANSACTION, next);
    const event: NotaryEvent = {
      id: newEventId(),
      provider: "sandbox",
      providerType,
      transactionId: next.id,
      status: next.deleted ? null : next.status,
      detailedStatus: next.deleted ? null : next.detailedStatus,
      deleted: next.deleted,
      occurredAt: now,
    };
    await writeObject(tx, event.id, EVENT, { event, delivered: false } satisfies StoredEvent);
    return next;
  }

  /** Runs `change` on the transaction under a lock: one signer's double click is one step. */
  async function change<T>(id: string, run: (tx: Tx, stored: Stored) => Promise<T>): Promise<T | null> {
    if (!SANDBOX_TRANSACTION_ID.test(id)) return null;
    return db.transaction(async (tx) => {
      const stored = await readLockedObject<Stored>(tx, `notary:${id}`, id, TRANSACTION);
      if (!stored || stored.deleted) return null;
      return run(tx, stored);
    });
  }

  async function remove(id: string, refuseCompleted: boolean): Promise<void> {
    await change(id, async (tx, stored) => {
      // Proof keeps a transaction a signer has completed; only its own side can remove it.
      if (refuseCompleted && stored.status === "completed") {
        throw new NotaryRefused("Transaction has already been completed by at least 1 signer.", 422);
      }
      await tx.delete(sandboxObjects).where(eq(sandboxObjects.id, documentId(id)));
      await save(tx, { ...stored, deleted: true }, "transaction.deleted", new Date());
    });
  }

  const notSent = () => new NotaryRefused("This document has not been sent for signing yet.", 409);
  const closed = () => new NotaryRefused("This notarization has ended.", 409);

  const provider: SandboxNotary = {
    name: "sandbox",

    async createTransaction({ pdf, documentName, signer, draft, idempotencyKey, metadata }) {
      if (!(await readablePdf(pdf))) throw new NotaryRefused("The document is not a PDF that can be notarized.", 422);
      const made = await db.transaction(async (tx) => {
        // A key answers its transaction while that is there; one deleted since leaves the key free for a new one.
        const earlier = await readLockedObject<{ transactionId: string }>(
          tx,
          `notary-create:${idempotencyKey}`,
          `nidem_${idempotencyKey}`,
          IDEMPOTENCY,
        );
        const kept = earlier ? await readObject<Stored>(tx, earlier.transactionId, TRANSACTION) : null;
        if (kept && !kept.deleted) return kept;
        const now = new Date();
        const stored: Stored = {
          id: newTransactionId(),
          status: draft ? "draft" : "sent",
          detailedStatus: draft ? SANDBOX_DETAILED.draft : SANDBOX_DETAILED.sent,
          documentName,
          signer,
          metadata,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
          signedAt: null,
          deleted: false,
        };
        await writeObject(tx, documentId(stored.id), DOCUMENT, {
          original: Buffer.from(pdf).toString("base64"),
          notarized: null,
        } satisfies StoredDocument);
        await writeObject(tx, `nidem_${idempotencyKey}`, IDEMPOTENCY, { transactionId: stored.id });
        return save(tx, stored, draft ? "transaction.created" : "transaction.sent_to_signer", now);
      });
      return transactionOf(made);
    },

    async getTransaction(id) {
      if (!SANDBOX_TRANSACTION_ID.test(id)) return null;
      const stored = await readObject<Stored>(db, id, TRANSACTION);
      return stored && !stored.deleted ? transactionOf(stored) : null;
    },

    async updateTransaction(id, { send, signer }) {
      return change(id, async (tx, stored) => {
        let next = stored;
        if (signer) {
          if (next.status !== "draft") throw new NotaryRefused("Only a draft transaction can be changed.", 422);
          next = await save(tx, { ...next, signer }, "transaction.updated", new Date());
        }
        // Sending what was sent already changes nothing.
        if (send && next.status === "draft") {
          next = await save(
            tx,
            { ...next, status: "sent", detailedStatus: SANDBOX_DETAILED.sent },
            "transaction.sent_to_signer",
            new Date(),
          );
        }
        return transactionOf(next);
      });
    },

    deleteTransaction: (id) => remove(id, true),

    deleteAtProvider: (id) => remove(id, false),

    async notarizedDocument(id) {
      if (!SANDBOX_TRANSACTION_ID.test(id)) return null;
      const stored = await readObject<Stored>(db, id, TRANSACTION);
      if (!stored || stored.deleted || stored.status !== "completed") return null;
      const document = await readObject<StoredDocument>(db, documentId(id), DOCUMENT);
      return document?.notarized ? new Uint8Array(Buffer.from(document.notarized, "base64")) : null;
    },

    readWebhook() {
      throw new InvalidNotaryWebhook("The sandbox notary sends no webhooks");
    },

    async signerView(id) {
      if (!SANDBOX_TRANSACTION_ID.test(id)) return null;
      const seen = await readObject<Stored>(db, id, TRANSACTION);
      if (!seen) return null;
      if (seen.deleted) return { kind: "removed" };
      // The first visit to a sent transaction marks it received, as opening Proof's link does.
      const stored =
        seen.status === "sent"
          ? ((await change(id, async (tx, current) =>
              current.status === "sent"
                ? save(
                    tx,
                    { ...current, status: "in_progress", detailedStatus: SANDBOX_DETAILED.received },
                    "transaction.updated",
                    new Date(),
                  )
                : current,
            )) ?? seen)
          : seen;
      return {
        kind: "open",
        transaction: transactionOf(stored),
        documentName: stored.documentName,
        signerName: stored.signer.name,
        step: stepOf(stored),
      };
    },

    async signerDocument(id) {
      if (!SANDBOX_TRANSACTION_ID.test(id)) return null;
      const stored = await readObject<Stored>(db, id, TRANSACTION);
      if (!stored || stored.deleted) return null;
      const document = await readObject<StoredDocument>(db, documentId(id), DOCUMENT);
      if (!document) return null;
      const notarized = document.notarized !== null;
      return {
        pdf: new Uint8Array(Buffer.from(document.notarized ?? document.original, "base64")),
        fileName: notarized ? `notarized-${stored.documentName}` : stored.documentName,
        notarized,
      };
    },

    async meetNotary(id) {
      return change(id, async (tx, stored) => {
        const step = stepOf(stored);
        if (step === "not_sent") throw notSent();
        if (step === "closed") throw closed();
        if (step !== "meet") return transactionOf(stored);
        const next = await save(
          tx,
          { ...stored, status: "in_progress", detailedStatus: SANDBOX_DETAILED.meeting },
          "transaction.meeting.created",
          new Date(),
        );
        return transactionOf(next);
      });
    },

    async sign(id, now = new Date()) {
      return change(id, async (tx, stored) => {
        const step = stepOf(stored);
        if (step === "done") return transactionOf(stored);
        if (step === "not_sent") throw notSent();
        if (step === "closed") throw closed();
        if (step === "meet") throw new NotaryRefused("Meet the notary before you sign.", 409);
        const document = (await readObject<StoredDocument>(tx, documentId(id), DOCUMENT))!;
        const notarized = await notarizedPdf(new Uint8Array(Buffer.from(document.original, "base64")), {
          transactionId: id,
          documentName: stored.documentName,
          signerName: stored.signer.name,
          signerEmail: stored.signer.email,
          signedAt: now,
        });
        await writeObject(tx, documentId(id), DOCUMENT, {
          ...document,
          notarized: Buffer.from(notarized).toString("base64"),
        } satisfies StoredDocument);
        const next = await save(
          tx,
          { ...stored, status: "completed", detailedStatus: SANDBOX_DETAILED.completed, signedAt: now.toISOString() },
          "transaction.completed",
          now,
        );
        return transactionOf(next);
      });
    },

    ...sandboxEventFeed(db, EVENT, (event: NotaryEvent) => ({ ...event, occurredAt: new Date(event.occurredAt) })),
  };
  return provider;
}
