import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import type { AppConfig } from "~/config/config.server";
import { wellFormedJsonText } from "~/domain/requests";
import { exchange, readReply } from "../http-exchange.server";
import {
  documentSchema,
  errorMessages,
  eventStatus,
  signerOf,
  transactionOf,
  transactionSchema,
  webhookSchema,
} from "./proof-objects.server";
import {
  InvalidNotaryWebhook,
  NotaryRefused,
  NotaryUnavailable,
  type NotaryEvent,
  type NotaryProvider,
  type NotaryTransaction,
} from "./types";

/**
 * Proof's Business API (https://dev.proof.com), over fetch. Each call reads `globalThis.fetch`
 * when it is made, so a mock installed later (msw) still sees it. What we took from Proof's
 * documentation, and where we read it: docs/decisions/022-notary-transactions-and-events.md.
 */

export type ProofSettings = Pick<AppConfig, "proofApiKey" | "proofApiBase" | "proofWebhookSecret">;

export const PROOF_TIMEOUT_MS = 10_000;

/** The header Proof signs its webhook deliveries in: hex HMAC-SHA256 of the raw body. */
export const PROOF_SIGNATURE_HEADER = "X-Notarize-Signature";

const UNAVAILABLE = "Notarize Online is not available just now. Please try again in a few minutes.";

type Reply = { status: number; body: unknown };

function settingsOrThrow(settings: ProofSettings) {
  const { proofApiKey: apiKey, proofWebhookSecret: webhookSecret, proofApiBase: apiBase } = settings;
  // The env schema requires both with NOTARY=proof; this guards a direct call.
  if (!apiKey || !webhookSecret) throw new Error("Proof needs PROOF_API_KEY and PROOF_WEBHOOK_SECRET");
  return { apiKey, webhookSecret, apiBase: apiBase.replace(/\/+$/, "") };
}

const parse = <S extends z.ZodTypeAny>(schema: S, what: string, body: unknown) =>
  readReply("Proof", schema, what, body);

export function proofNotary(settings: ProofSettings, options: { timeoutMs?: number } = {}): NotaryProvider {
  const { apiKey, webhookSecret, apiBase } = settingsOrThrow(settings);
  const timeoutMs = options.timeoutMs ?? PROOF_TIMEOUT_MS;

  /** One request; 404 comes back as a reply (each call decides what "gone" means), other failures throw. */
  async function request(method: string, path: string, body?: object): Promise<Reply> {
    return exchange(
      `${apiBase}/v1${path}`,
      {
        method,
        headers: {
          ApiKey: apiKey,
          Accept: "application/json",
          ...(body ? { "Content-Type": "application/json" } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      },
      {
        provider: "Proof",
        timeoutMs,
        unavailable: (cause) => new NotaryUnavailable(UNAVAILABLE, { cause }),
        judge(status, json) {
          if (status === 429 || status >= 500) {
            throw new NotaryUnavailable(UNAVAILABLE, { cause: new Error(`Proof answered ${status}`) });
          }
          if (status >= 400 && status !== 404) {
            const messages = errorMessages(json);
            throw new NotaryRefused(
              messages.length ? messages.join("; ") : `Notarize Online refused the request (${status})`,
              status,
            );
          }
        },
      },
    );
  }

  const transactionPath = (id: string) => `/transactions/${encodeURIComponent(id)}`;

  async function readTransaction(id: string) {
    const reply = await request("GET", transactionPath(id));
    return reply.status === 404 ? null : parse(transactionSchema, "a transaction", reply.body);
  }

  const transactionReply = (reply: Reply): NotaryTransaction | null =>
    reply.status === 404 ? null : transactionOf(parse(transactionSchema, "a transaction", reply.body));

  const provider: NotaryProvider = {
    name: "proof",

    async createTransaction({ pdf, documentName, signer, draft, idempotencyKey }) {
      // Proof has no idempotency key and no free metadata: `external_id` carries our key, so
      // a transaction made by an attempt whose answer was lost can be found in Proof's lists.
      const reply = await request("POST", "/transactions", {
        signers: [signerOf(signer)],
        documents: [
          {
            resource: Buffer.from(pdf).toString("base64"),
            requirement: "notarization",
            filename: documentName,
          },
        ],
        draft,
        external_id: idempotencyKey,
        transaction_name: documentName,
      });
      if (reply.status === 404) throw new NotaryRefused("Notarize Online could not create the transaction", 404);
      return transactionOf(parse(transactionSchema, "a transaction", reply.body));
    },

    async getTransaction(id) {
      const transaction = await readTransaction(id);
      return transaction ? transactionOf(transaction) : null;
    },

    async updateTransaction(id, { send, signer }) {
      let reply: Reply | null = null;
      if (signer) {
        reply = await request("PUT", transactionPath(id), { signers: [signerOf(signer)] });
        if (reply.status === 404) return null;
      }
      // A draft is sent by activating it; PUT only edits a draft.
      if (send) reply = await request("POST", `${transactionPath(id)}/notarization_ready`, {});
      return reply ? transactionReply(reply) : provider.getTransaction(id);
    },

    async deleteTransaction(id) {
      // 404: gone already, which is what was asked.
      await request("DELETE", transactionPath(id));
    },

    async notarizedDocument(id) {
      const transaction = await readTransaction(id);
      if (!transaction || transactionOf(transaction).status !== "completed") return null;
      const documentId = transaction.documents?.[0]?.id;
      if (!documentId) return null;
      const reply = await request(
        "GET",
        `${transactionPath(id)}/documents/${encodeURIComponent(documentId)}?encoding=base64`,
      );
      if (reply.status === 404) return null;
      return new Uint8Array(Buffer.from(parse(documentSchema, "a document", reply.body).data, "base64"));
    },

    readWebhook(rawBody, headers) {
      return readProofWebhook(webhookSecret, rawBody, headers);
    },
  };
  return provider;
}

/**
 * Checks a delivery's signature (hex HMAC-SHA256 of the raw body, keyed with the webhook's
 * signing key: by default the API key the subscription was made with) and reads it. Proof's
 * scheme has no timestamp, so there is no staleness to check: a replayed delivery is the same
 * event (its id is the body's hash), and the handler reads the transaction's state from Proof.
 */
export function readProofWebhook(secret: string, rawBody: string, headers: Headers): NotaryEvent {
  const signature = headers.get(PROOF_SIGNATURE_HEADER)?.trim();
  if (!signature) throw new InvalidNotaryWebhook(`The delivery has no ${PROOF_SIGNATURE_HEADER} header`);
  const expected = createHmac("sha256", secret).update(rawBody, "utf8").digest();
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, "hex") : null;
  if (!given || !timingSafeEqual(given, expected)) {
    throw new InvalidNotaryWebhook("The delivery's signature does not match its body");
  }
  let body: unknown;
  try {
    // Checked on its bytes as sent; read with any lone surrogate's escape (which jsonb refuses) as U+FFFD.
    body = JSON.parse(wellFormedJsonText(rawBody));
  } catch {
    throw new InvalidNotaryWebhook("The delivery's body is not JSON");
  }
  const parsed = webhookSchema.safeParse(body);
  if (!parsed.success) throw new InvalidNotaryWebhook("The delivery is not a Proof webhook event");
  const { event, data } = parsed.data;
  const occurred = data.date_occurred ? new Date(data.date_occurred) : new Date();
  return {
    id: `proof_${createHash("sha256").update(rawBody, "utf8").digest("hex").slice(0, 40)}`,
    provider: "proof",
    providerType: event,
    transactionId: data.transaction_id ?? null,
    status: eventStatus(event, data),
    detailedStatus: data.detailed_status ?? data.status ?? null,
    deleted: event === "transaction.deleted",
    occurredAt: Number.isNaN(occurred.getTime()) ? new Date() : occurred,
  };
}
