import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { claims, notarizations, notices, type NotarizedDocument } from "~/db/schema";
import { notarizeOffer, notarizeRefusal } from "~/domain/documents/notarize-offer";
import { documentFilename } from "~/domain/documents/document-data";
import { REMOVED_MESSAGE } from "~/domain/documents/notarize-flow";
import { noticeIdsSchema, type NoticeIds } from "~/domain/documents/notice-ids";
import { invalid, notFound, unavailable } from "~/domain/errors";
import { providerErrorCode } from "~/providers/errors";
import type { CreateTransactionInput, NotaryStatus, NotaryTransaction } from "~/providers/notary/types";
import { refundOnDelete } from "../billing/credits.server";
import { giveBackSpend, settleSpend, spendForNotarize } from "./notarize-credits.server";
import { lettersOf } from "./notarized-pages.server";
import type { LetterPages } from "~/domain/documents/notarized-letters";
import {
  findNotice,
  noticeIdsOf,
  noticeJson,
  noticeOf,
  noticesOf,
  type NoticeRecord,
} from "../documents/notices.server";
import { recordWrittenNotice } from "../documents/records.server";
import { writtenNoticeEntry } from "../documents/written-notice.server";
import { renderNoticePdf } from "../documents/render.server";
import { entriesOf, versionState } from "../nol/entries.server";
import { featuresOf } from "../nol/features.server";
import type { UserRow, Viewer } from "../session.server";

/**
 * Notarizing a member's notice online (spec §4 "Notarize flow", §7 /api/nol/notarize): the
 * notice's PDF goes to the notary provider as one transaction for the member to sign; the
 * notice's `notarize` (the notarizations row) follows the transaction through the provider's
 * events, a refresh, and a poll that leaves no open transaction stale.
 */

type NotarizationRow = typeof notarizations.$inferSelect;

export { REMOVED_MESSAGE };

/** spec §8: a create that leaves no notarize. */
export const NOTARIZE_FAILED_MESSAGE =
  "An error occurred and has been reported. We will do our best to fix this as soon as possible and notify you by email.";

export const NOTARY_UNAVAILABLE_MESSAGE =
  "Notarize Online cannot be reached right now. Nothing was sent; please try again in a few minutes.";

/** Statuses after which a transaction no longer changes: the poll leaves them be. */
export const OPEN_STATUSES: NotaryStatus[] = ["draft", "sent", "in_progress"];

export const isOpen = (status: string | null): boolean => OPEN_STATUSES.includes(status as NotaryStatus);

/** POST /api/nol/notarize's body: the current NoL, and whether to make a draft (sent later by PUT). */
export const notarizeSchema = noticeIdsSchema.extend({ draft: z.boolean().default(false) });
export type NotarizeInput = z.infer<typeof notarizeSchema>;

/** PUT /api/nol/notarize/{nz_id}'s body: send the draft to its signer. */
export const updateNotarizeSchema = z.object({ send: z.boolean().default(true) }).strict();
export type UpdateNotarizeInput = z.infer<typeof updateNotarizeSchema>;

/** The provider's failures in the API's terms: down is 503 (nothing written), refused is 400 with its message. */
export async function atProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const code = providerErrorCode(error);
    if (code === "provider_unavailable") throw unavailable(NOTARY_UNAVAILABLE_MESSAGE);
    if (code === "notary_refused") throw invalid((error as Error).message);
    throw error;
  }
}

/** The row's fields that follow the provider's transaction. */
export const transactionFields = (transaction: NotaryTransaction) => ({
  nzCreated: transaction.createdAt,
  nzUpdated: transaction.updatedAt,
  nzStatus: transaction.status,
  nzStatus2: transaction.detailedStatus,
  accessUrl: transaction.accessUrl,
});

/** What a transaction gone at the provider leaves on our row: no link, no status. */
export const removedFields = { accessUrl: null, nzStatus: null, nzStatus2: null } as const;

/**
 * The key of one attempt: the notice and the transaction it replaces (none at first). Two
 * submits at once are one transaction (they send the same key; a later one also finds it open
 * and answers it); an attempt after a removal names the removed one, so it is a new one. A
 * deletion leaves no row to name, so the attempt after it sends the first key again: the
 * sandbox makes a new transaction for a key whose transaction was deleted, and Proof, which
 * has no idempotency, makes one for every create (docs/decisions/023).
 */
export function idempotencyKey(noticeId: number, existing: Pick<NotarizationRow, "nzId"> | null): string {
  return `notice-${noticeId}-after-${existing?.nzId ?? "none"}`;
}

/** What the member's version of a notice offers to notarize now (its next step, its features, its notices), and its current notice. */
export async function versionOffer(db: Database, member: Pick<UserRow, "id">, causeCode: string, version: string) {
  const state = versionState(await entriesOf(db, member.id, causeCode), version);
  const records = (await noticesOf(db, member, causeCode)).filter((r) => r.claim.nolVersion === version);
  const features = await featuresOf(db, member.id, causeCode);
  const offer = notarizeOffer({
    features: features(causeCode, version),
    step: state.step,
    noticeRounds: records.map((r) => r.notice.roundCnt),
    savedAnswers: state.creator !== null,
  });
  const record = records.find((r) => r.notice.roundCnt === offer.round);
  // At a notice step, the notice being written: its creator entry's, as it will be recorded.
  const written =
    offer.reason === null && offer.written && state.creator
      ? { cf_number: state.creator.entryNumber, cf_version: version, round_cnt: offer.round }
      : null;
  const current: NoticeIds | null = record ? noticeIdsOf(record) : written;
  return { state, records, offer, current };
}

/**
 * The notice the ids name, to notarize. The notice a notice step is writing has no rows until
 * it is first notarized: they are made here, when its version offers it.
 */
async function noticeToNotarize(db: Database, member: Pick<UserRow, "id">, ids: NoticeIds): Promise<NoticeRecord> {
  const found = await findNotice(db, member, ids);
  if (found) return found;
  const entry = await writtenNoticeEntry(db, member, ids);
  if (!entry) throw notFound("No such notice");
  const { offer } = await versionOffer(db, member, entry.causeCode, ids.cf_version);
  const refusal = notarizeRefusal(offer, ids.round_cnt);
  if (refusal) throw invalid(refusal);
  await recordWrittenNotice(db, entry.id, ids.round_cnt);
  return noticeOf(db, member, ids);
}

/** A notice that is not the current one of its version, or a version that does not allow it: a 400 with the reason. */
async function requireOffered(db: Database, member: Pick<UserRow, "id">, record: NoticeRecord) {
  const { offer } = await versionOffer(db, member, record.claim.causeCode, record.claim.nolVersion);
  const refusal = notarizeRefusal(offer, record.notice.roundCnt);
  if (refusal) throw invalid(refusal);
}

/** The notarization's transaction when still open at the current provider (a double submit), refreshed; else null. */
export async function openTransaction(services: AppServices, existing: NotarizationRow | null) {
  const notary = services.providers.notary;
  if (!existing?.nzId || existing.provider !== notary.name || !isOpen(existing.nzStatus)) return null;
  const current = await atProvider(() => notary.getTransaction(existing.nzId!));
  if (current) await recordTransaction(services.db, existing, current);
  return current;
}

/**
 * Which of the notice's documents a transaction notarizes, the create request's own fields, and
 * the document's letters with their pages where it is mailed letter by letter.
 */
type NotaryRequest = Omit<CreateTransactionInput, "pdf" | "documentName" | "signer"> & {
  document: NotarizedDocument;
  letterPages?: LetterPages | null;
};

/**
 * Sends a member's document to the notary as one transaction to sign, paid with a credit where one is due,
 * and records it on the notice's row of that document. Null when the provider made none (the credit comes back).
 */
export async function sendToNotary(
  services: AppServices,
  viewer: Viewer,
  noticeId: number,
  pdf: { bytes: Uint8Array; filename: string },
  { document, letterPages = null, ...request }: NotaryRequest,
): Promise<NotaryTransaction | null> {
  const { db, config, providers } = services;
  const notary = providers.notary;
  const { member } = viewer;
  const spend = await spendForNotarize(services, viewer, noticeId);
  const made = await atProvider(() =>
    notary.createTransaction({
      ...request,
      pdf: pdf.bytes,
      documentName: pdf.filename,
      signer: { name: member.name?.trim() || member.username, email: member.email },
    }),
  ).catch(giveBackSpend(services, spend));
  await settleSpend(services, spend, made);
  if (!made?.id) return null;
  const fields = {
    provider: notary.name,
    nzId: made.id,
    cost: config.notarizeCostCents,
    letterPages,
    ...transactionFields(made),
  };
  await db
    .insert(notarizations)
    .values({ noticeId, document, ...fields })
    .onConflictDoUpdate({
      target: [notarizations.noticeId, notarizations.document],
      set: { ...fields, updatedAt: new Date() },
    });
  return made;
}

/** POST /api/nol/notarize (spec §7): the member's own notice to the notary → `{ notice }`, or `{ error }`. */
export async function notarize(
  services: AppServices,
  viewer: Viewer,
  { draft, ...ids }: NotarizeInput,
): Promise<{ notice: ReturnType<typeof noticeJson> } | { error: string }> {
  const { db, config, providers, logger } = services;
  const notary = providers.notary;
  const record = await noticeToNotarize(db, viewer.member, ids);
  await requireOffered(db, viewer.member, record);
  if (await openTransaction(services, record.notarization)) {
    return { notice: noticeJson(await noticeOf(db, viewer.member, ids)) };
  }
  const member = viewer.member;
  const document = await renderNoticePdf(services, record);
  const made = await sendToNotary(services, viewer, record.notice.id, document, {
    document: "notice",
    letterPages: await lettersOf(services, record, document.bytes),
    draft,
    idempotencyKey: idempotencyKey(record.notice.id, record.notarization),
    metadata: { notice_id: String(record.notice.id), member_id: member.id },
  });
  if (!made) {
    logger.error({ noticeId: record.notice.id, provider: notary.name }, "the notary made no transaction");
    return { error: `${NOTARIZE_FAILED_MESSAGE} Contact: ${config.supportEmail}` };
  }
  const updated = await noticeOf(db, member, ids);
  if (!updated.notarization) {
    logger.error({ noticeId: record.notice.id, nzId: made.id }, "the notarize was not recorded");
    return { error: `${NOTARIZE_FAILED_MESSAGE} Contact: ${config.supportEmail}` };
  }
  logger.info({ noticeId: record.notice.id, nzId: made.id, provider: notary.name }, "notice sent to the notary");
  return { notice: noticeJson(updated) };
}

/** The member's notarization of a transaction at the current provider; someone else's and a missing one are the same 404. */
async function ownNotarization(services: AppServices, viewer: Viewer, nzId: string): Promise<NotarizationRow> {
  const [row] = await services.db
    .select({ notarization: notarizations })
    .from(notarizations)
    .innerJoin(notices, eq(notices.id, notarizations.noticeId))
    .innerJoin(claims, eq(claims.id, notices.claimId))
    .where(
      and(
        eq(notarizations.provider, services.providers.notary.name),
        eq(notarizations.nzId, nzId),
        eq(claims.claimantId, viewer.member.id),
      ),
    );
  if (!row) throw notFound("No such notarization");
  return row.notarization;
}

/** Writes what the provider says of a transaction (null: gone) on its row; true when it is gone. */
export async function recordTransaction(db: Database, row: NotarizationRow, transaction: NotaryTransaction | null) {
  await db
    .update(notarizations)
    .set({ ...(transaction ? transactionFields(transaction) : removedFields), updatedAt: new Date() })
    .where(eq(notarizations.id, row.id));
  return transaction === null;
}

export type RefreshResult = { error: string | null; deleted: boolean; upd: boolean };

/** POST /api/nol/notarize/refresh/{nz_id} (spec §7): the status from the provider. */
export async function refreshNotarization(services: AppServices, viewer: Viewer, nzId: string): Promise<RefreshResult> {
  const row = await ownNotarization(services, viewer, nzId);
  const transaction = await atProvider(() => services.providers.notary.getTransaction(nzId));
  const deleted = await recordTransaction(services.db, row, transaction);
  return deleted ? { error: REMOVED_MESSAGE, deleted: true, upd: false } : { error: null, deleted: false, upd: true };
}

/** PUT /api/nol/notarize/{nz_id}: sends a draft to its signer; reads the status of any other. */
export async function updateNotarization(
  services: AppServices,
  viewer: Viewer,
  nzId: string,
  body: UpdateNotarizeInput,
): Promise<{ deleted: boolean; updated: boolean; upd: boolean; error: string | null }> {
  const row = await ownNotarization(services, viewer, nzId);
  const notary = services.providers.notary;
  // Only a draft is sent; for any other, an update reads the status (Proof refuses to send one twice).
  const send = body.send && row.nzStatus === "draft";
  const sent = send ? await atProvider(() => notary.updateTransaction(nzId, { send: true })) : null;
  const transaction = sent ?? (await atProvider(() => notary.getTransaction(nzId)));
  const deleted = await recordTransaction(services.db, row, transaction);
  return deleted
    ? { deleted: true, updated: false, upd: false, error: REMOVED_MESSAGE }
    : { deleted: false, updated: sent !== null, upd: true, error: null };
}

/** GET /api/nol/notarize/{nz_id}/document: the notarized PDF of the member's completed notarization. */
export async function notarizedDocument(services: AppServices, viewer: Viewer, nzId: string) {
  return notarizedDocumentOf(services, await ownNotarization(services, viewer, nzId));
}

/** A completed notarization's PDF from the notary, named after its notice (the member's own: the caller checks). */
export async function notarizedDocumentOf(services: AppServices, row: NotarizationRow) {
  const nzId = row.nzId;
  if (row.nzStatus !== "completed" || !nzId) throw notFound("The notarized document is not ready yet");
  const pdf = await atProvider(() => services.providers.notary.notarizedDocument(nzId));
  if (!pdf) throw notFound("The notarized document is not ready yet");
  const [notice] = await services.db
    .select({ round: notices.roundCnt, cause: claims.causeCode, version: claims.nolVersion })
    .from(notices)
    .innerJoin(claims, eq(claims.id, notices.claimId))
    .where(eq(notices.id, row.noticeId));
  const { round, cause, version } = notice!;
  return {
    bytes: pdf,
    filename: `notarized-${documentFilename({ cause: { code: cause }, version, round }, row.document)}`,
  };
}

/** DELETE /api/nol/notarize/{nz_id}: deletes the transaction at the provider, then the notice's notarize. */
export async function deleteNotarization(services: AppServices, viewer: Viewer, nzId: string) {
  const row = await ownNotarization(services, viewer, nzId);
  await atProvider(() => services.providers.notary.deleteTransaction(nzId));
  await services.db.delete(notarizations).where(eq(notarizations.id, row.id));
  await refundOnDelete(services.db, nzId, row.nzStatus);
  return { deleted: true };
}

const nzIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\w-]+$/, "Not a notarize id");

/** An {nz_id} of the path: a malformed one is a 400 with its field error. */
export function nzIdParam(value: string | undefined): string {
  const parsed = nzIdSchema.safeParse(value ?? "");
  if (!parsed.success) throw invalid("Invalid notarize id", { nz_id: parsed.error.issues.map((i) => i.message) });
  return parsed.data;
}
