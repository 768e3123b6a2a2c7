import { z } from "zod";
import type { NotarySigner, NotaryStatus, NotaryTransaction } from "./types";

/**
 * Proof's JSON as its Business API sends it (https://dev.proof.com/reference), read with zod:
 * only the fields we use are required, and everything else may come and go.
 */

const signerSchema = z
  .object({
    email: z.string().nullish(),
    first_name: z.string().nullish(),
    last_name: z.string().nullish(),
    transaction_access_link: z.string().nullish(),
  })
  .passthrough();

export const transactionSchema = z
  .object({
    id: z.string().min(1),
    /** The coarse status: started, sent, received, completed, expired… */
    status: z.string().nullish(),
    /** The lifecycle field: draft, active, sent_to_signer, recalled… */
    detailed_status: z.string().nullish(),
    date_created: z.string(),
    date_updated: z.string().nullish(),
    signer_info: signerSchema.nullish(),
    signers: z.array(signerSchema).nullish(),
    documents: z.array(z.object({ id: z.string() }).passthrough()).nullish(),
  })
  .passthrough();
export type ProofTransaction = z.infer<typeof transactionSchema>;

/** GET /v1/transactions/{id}/documents/{document_id}?encoding=base64: the file in `data`. */
export const documentSchema = z.object({ id: z.string().nullish(), data: z.string().min(1) }).passthrough();

/** Proof's refusals: `{ "errors": ["Transaction Not Found"] }`, and in places a field-keyed object. */
export const errorsSchema = z
  .object({
    errors: z
      .union([
        z.array(z.union([z.string(), z.object({ message: z.string() }).passthrough()])),
        z.record(z.union([z.string(), z.array(z.string())])),
      ])
      .optional(),
    error: z.string().optional(),
    message: z.string().optional(),
  })
  .passthrough();

/** The messages of a refusal body, or none when it has no readable message. */
export function errorMessages(body: unknown): string[] {
  const parsed = errorsSchema.safeParse(body);
  if (!parsed.success) return [];
  const { errors, error, message } = parsed.data;
  const listed = Array.isArray(errors)
    ? errors.map((entry) => (typeof entry === "string" ? entry : entry.message))
    : Object.entries(errors ?? {}).flatMap(([field, text]) =>
        (Array.isArray(text) ? text : [text]).map((line) => `${field} ${line}`),
      );
  return [...listed, ...(error ? [error] : []), ...(message ? [message] : [])].filter((line) => line.trim() !== "");
}

/** A webhook body (Webhooks V2 `{ event, data }`; V1's `transaction_status_update` has the same envelope). */
export const webhookSchema = z.object({
  event: z.string().min(1),
  data: z
    .object({
      transaction_id: z.string().min(1).nullish(),
      status: z.string().nullish(),
      detailed_status: z.string().nullish(),
      date_occurred: z.string().nullish(),
    })
    .passthrough()
    .default({}),
});

const DETAILED: Record<string, NotaryStatus> = {
  draft: "draft",
  recalled: "draft",
  active: "sent",
  sent_to_signer: "sent",
  expired: "expired",
  completed: "completed",
  complete: "completed",
  released: "completed",
  completed_with_rejections: "cancelled",
  complete_with_rejections: "cancelled",
  declined: "cancelled",
  canceled: "cancelled",
  cancelled: "cancelled",
};

const COARSE: Record<string, NotaryStatus> = {
  started: "draft",
  sent: "sent",
  active: "sent",
  sent_to_closing_ops: "sent",
  sent_to_title_agency: "sent",
  received: "in_progress",
  partially_completed: "in_progress",
  completed: "completed",
  completed_with_rejections: "cancelled",
  expired: "expired",
};

/**
 * Our status from Proof's two: the detailed status where it names a step we know, else the
 * coarse one. A transaction in a step neither names (a meeting, a product-specific step) is
 * under way.
 */
export function statusOf(detailedStatus: string | null | undefined, status: string | null | undefined): NotaryStatus {
  return DETAILED[detailedStatus ?? ""] ?? COARSE[status ?? ""] ?? "in_progress";
}

/** What a webhook event says the transaction became, where its name says it. */
const EVENT_STATUS: Record<string, NotaryStatus> = {
  "transaction.sent_to_signer": "sent",
  "transaction.recalled": "draft",
  "transaction.meeting.requested": "in_progress",
  "transaction.meeting.created": "in_progress",
  "transaction.partially_completed": "in_progress",
  "transaction.completed": "completed",
  "transaction.released": "completed",
  "transaction.completed_with_rejections": "cancelled",
  "transaction.declined": "cancelled",
  "transaction.expired": "expired",
};

export function eventStatus(
  event: string,
  data: { status?: string | null; detailed_status?: string | null },
): NotaryStatus | null {
  if (data.status || data.detailed_status) return statusOf(data.detailed_status, data.status);
  return EVENT_STATUS[event] ?? null;
}

export function transactionOf(transaction: ProofTransaction): NotaryTransaction {
  const signer = transaction.signers?.[0] ?? transaction.signer_info ?? null;
  const createdAt = new Date(transaction.date_created);
  const updated = transaction.date_updated ? new Date(transaction.date_updated) : createdAt;
  return {
    id: transaction.id,
    status: statusOf(transaction.detailed_status, transaction.status),
    detailedStatus: transaction.detailed_status ?? transaction.status ?? "unknown",
    accessUrl: signer?.transaction_access_link ?? null,
    createdAt,
    updatedAt: Number.isNaN(updated.getTime()) ? createdAt : updated,
  };
}

/** Proof's signer object: the name split as "first … last" (the last word is the last name). */
export function signerOf(signer: NotarySigner): { email: string; first_name?: string; last_name?: string } {
  const words = signer.name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { email: signer.email };
  if (words.length === 1) return { email: signer.email, first_name: words[0] };
  return { email: signer.email, first_name: words.slice(0, -1).join(" "), last_name: words.at(-1) };
}
