import { and, eq, inArray, isNull, lte, or } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { claims, notarizations, notices, webhookEvents } from "~/db/schema";
import { noticeIdsSchema } from "~/domain/documents/notice-ids";
import { invalid, notFound, unavailable } from "~/domain/errors";
import {
  NotaryRefused,
  NotaryUnavailable,
  type NotaryEvent,
  type NotaryProviderName,
  type NotaryStatus,
  type NotaryTransaction,
} from "~/providers/notary/types";
import { noticeJson, noticeOf } from "../documents/notices.server";
import { renderNoticePdf } from "../documents/render.server";
import type { JobDefinition } from "../jobs.server";
import type { Viewer } from "../session.server";
import { REMOVED_MESSAGE } from "./signer-page.server";

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
const OPEN_STATUSES: NotaryStatus[] = ["draft", "sent", "in_progress"];

/** POST /api/nol/notarize's body: the current NoL, and whether to make a draft (sent later by PUT). */
export const notarizeSchema = noticeIdsSchema.extend({ draft: z.boolean().default(false) });
export type NotarizeInput = z.infer<typeof notarizeSchema>;

/** PUT /api/nol/notarize/{nz_id}'s body: send the draft to its signer. */
export const updateNotarizeSchema = z.object({ send: z.boolean().default(true) }).strict();
export type UpdateNotarizeInput = z.infer<typeof updateNotarizeSchema>;

/** The provider's failures in the API's terms: down is 503 (nothing written), refused is 400 with its message. */
async function atProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotaryUnavailable) throw unavailable(NOTARY_UNAVAILABLE_MESSAGE);
    if (error instanceof NotaryRefused) throw invalid(error.message);
    throw error;
  }
}

/** The row's fields that follow the provider's transaction. */
const transactionFields = (transaction: NotaryTransaction) => ({
  nzCreated: transaction.createdAt,
  nzUpdated: transaction.updatedAt,
  nzStatus: transaction.status,
  nzStatus2: transaction.detailedStatus,
  accessUrl: transaction.accessUrl,
});

/** What a transaction gone at the provider leaves on our row: no link, no status. */
const removedFields = { accessUrl: null, nzStatus: null, nzStatus2: null } as const;

/**
 * The key of one attempt: the notice, the transaction it replaces (none at first) and the
 * minute. Two submits at once are one transaction (a later one finds it open and answers it);
 * an attempt after a removal or a deletion is a new one.
 */
function idempotencyKey(noticeId: number, existing: NotarizationRow | null, now: Date): string {
  const minute = Math.floor(now.getTime() / 60_000);
  return `notice-${noticeId}-${existing?.nzId ?? "none"}-${minute}`;
}

/** POST /api/nol/notarize (spec §7): the member's own notice to the notary → `{ notice }`, or `{ error }`. */
export async function notarize(
  services: AppServices,
  viewer: Viewer,
  { draft, ...ids }: NotarizeInput,
): Promise<{ notice: ReturnType<typeof noticeJson> } | { error: string }> {
  const { db, config, providers, logger } = services;
  const notary = providers.notary;
  const record = await noticeOf(db, viewer.member, ids);
  const open = record.notarization;
  if (open?.nzId && open.provider === notary.name && OPEN_STATUSES.includes(open.nzStatus as NotaryStatus)) {
    // The notice's transaction is still open (a double submit, a second tab): it is the one.
    const current = await atProvider(() => notary.getTransaction(open.nzId!));
    if (current) {
      await recordTransaction(db, open, current);
      return { notice: noticeJson(await noticeOf(db, viewer.member, ids)) };
    }
  }
  const document = await renderNoticePdf(services, record);
  const member = viewer.member;
  const made = await atProvider(() =>
    notary.createTransaction({
      pdf: document.bytes,
      documentName: document.filename,
      signer: { name: member.name?.trim() || member.username, email: member.email },
      draft,
      idempotencyKey: idempotencyKey(record.notice.id, record.notarization, new Date()),
      metadata: { notice_id: String(record.notice.id), member_id: member.id },
    }),
  );
  if (!made?.id) {
    logger.error({ noticeId: record.notice.id, provider: notary.name }, "the notary made no transaction");
    return { error: `${NOTARIZE_FAILED_MESSAGE} Contact: ${config.supportEmail}` };
  }
  const fields = { provider: notary.name, nzId: made.id, cost: config.notarizeCostCents, ...transactionFields(made) };
  await db
    .insert(notarizations)
    .values({ noticeId: record.notice.id, ...fields })
    .onConflictDoUpdate({ target: notarizations.noticeId, set: { ...fields, updatedAt: new Date() } });
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
async function recordTransaction(db: Database, row: NotarizationRow, transaction: NotaryTransaction | null) {
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

/** PUT /api/nol/notarize/{nz_id}: sends a draft to its signer, then refreshes. */
export async function updateNotarization(
  services: AppServices,
  viewer: Viewer,
  nzId: string,
  body: UpdateNotarizeInput,
): Promise<{ deleted: boolean; updated: boolean; upd: boolean; error: string | null }> {
  const row = await ownNotarization(services, viewer, nzId);
  const notary = services.providers.notary;
  const sent = body.send ? await atProvider(() => notary.updateTransaction(nzId, { send: true })) : null;
  const transaction = sent ?? (await atProvider(() => notary.getTransaction(nzId)));
  const deleted = await recordTransaction(services.db, row, transaction);
  return deleted
    ? { deleted: true, updated: false, upd: false, error: REMOVED_MESSAGE }
    : { deleted: false, updated: sent !== null, upd: true, error: null };
}

/** DELETE /api/nol/notarize/{nz_id}: deletes the transaction at the provider, then the notice's notarize. */
export async function deleteNotarization(services: AppServices, viewer: Viewer, nzId: string) {
  const row = await ownNotarization(services, viewer, nzId);
  await atProvider(() => services.providers.notary.deleteTransaction(nzId));
  await services.db.delete(notarizations).where(eq(notarizations.id, row.id));
  return { deleted: true };
}

/**
 * The one handler of what the notary tells us, for both adapters: the event is stored by its
 * id and applied in one transaction, so a replay changes nothing. An event older than what the
 * row already has changes nothing either (deliveries come in no set order).
 */
export async function applyNotaryEvent(
  db: Database,
  event: NotaryEvent,
): Promise<{ outcome: "applied" | "duplicate" }> {
  return db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(webhookEvents)
      .values({ provider: `notary:${event.provider}`, eventId: event.id, type: event.providerType, payload: event })
      .onConflictDoNothing()
      .returning({ id: webhookEvents.id });
    if (!stored) return { outcome: "duplicate" as const };
    if (event.transactionId) {
      const ofTransaction = and(
        eq(notarizations.provider, event.provider),
        eq(notarizations.nzId, event.transactionId),
      );
      if (event.deleted) {
        await tx
          .update(notarizations)
          .set({ ...removedFields, updatedAt: new Date() })
          .where(ofTransaction);
      } else if (event.status) {
        await tx
          .update(notarizations)
          .set({
            nzStatus: event.status,
            ...(event.detailedStatus ? { nzStatus2: event.detailedStatus } : {}),
            nzUpdated: event.occurredAt,
            updatedAt: new Date(),
          })
          .where(
            and(ofTransaction, or(isNull(notarizations.nzUpdated), lte(notarizations.nzUpdated, event.occurredAt))),
          );
      }
    }
    await tx.update(webhookEvents).set({ processedAt: new Date() }).where(eq(webhookEvents.id, stored.id));
    return { outcome: "applied" as const };
  });
}

/** Reads a transaction at the provider and writes it on every row of it (the poll, and events that say no status). */
async function syncTransaction(services: AppServices, provider: NotaryProviderName, nzId: string): Promise<void> {
  const transaction = await services.providers.notary.getTransaction(nzId);
  await services.db
    .update(notarizations)
    .set({ ...(transaction ? transactionFields(transaction) : removedFields), updatedAt: new Date() })
    .where(and(eq(notarizations.provider, provider), eq(notarizations.nzId, nzId)));
}

/** Applies an event; one that does not say what the transaction became is read at the provider. */
export async function receiveNotaryEvent(services: AppServices, event: NotaryEvent) {
  const result = await applyNotaryEvent(services.db, event);
  if (result.outcome === "applied") {
    if (
      event.transactionId &&
      !event.deleted &&
      event.status === null &&
      event.provider === services.providers.notary.name
    ) {
      await syncTransaction(services, event.provider, event.transactionId);
    }
    services.logger.info(
      { event: event.id, type: event.providerType, provider: event.provider },
      "notary event applied",
    );
  }
  return result;
}

/** POST /api/webhooks/notary: one delivery of the provider, read (signature checked) and applied. */
export async function receiveNotaryWebhook(services: AppServices, rawBody: string, headers: Headers) {
  const event = services.providers.notary.readWebhook(rawBody, headers);
  const { outcome } = await receiveNotaryEvent(services, event);
  return { received: true, duplicate: outcome === "duplicate" };
}

/** Hands every event the sandbox notary has not delivered yet to the handler, oldest first. */
export async function deliverNotarySandboxEvents(services: AppServices): Promise<number> {
  const sandbox = services.providers.notarySandbox;
  if (!sandbox) return 0;
  let delivered = 0;
  for (;;) {
    const events = await sandbox.undeliveredEvents(100);
    if (events.length === 0) return delivered;
    for (const event of events) {
      await receiveNotaryEvent(services, event);
      await sandbox.markDelivered(event.id);
      delivered += 1;
    }
    if (events.length < 100) return delivered;
  }
}

/** Reads every notarization still open at the current provider, so a lost webhook leaves none stale. */
export async function pollOpenNotarizations(services: AppServices): Promise<number> {
  const provider = services.providers.notary.name;
  const open = await services.db
    .select({ nzId: notarizations.nzId })
    .from(notarizations)
    .where(and(eq(notarizations.provider, provider), inArray(notarizations.nzStatus, OPEN_STATUSES)));
  let polled = 0;
  for (const { nzId } of open) {
    if (!nzId) continue;
    await syncTransaction(services, provider, nzId);
    polled += 1;
  }
  return polled;
}

export const notarySandboxEventsJob = {
  data: z.object({}),
  schedule: "* * * * *",
  policy: "stately",
  enabled: (services) => services.providers.notarySandbox !== null,
  async run(services) {
    await deliverNotarySandboxEvents(services);
  },
} satisfies JobDefinition<Record<string, never>>;

export const notaryPollJob = {
  data: z.object({}),
  schedule: "*/5 * * * *",
  policy: "stately",
  async run(services) {
    await pollOpenNotarizations(services);
  },
} satisfies JobDefinition<Record<string, never>>;

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
