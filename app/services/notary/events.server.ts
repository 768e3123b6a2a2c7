import { and, eq, inArray, isNull, lte, or } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { notarizations, webhookEvents } from "~/db/schema";
import { invalid, notFound } from "~/domain/errors";
import { refuseNulInJsonText } from "~/lib/json-body.server";
import { isProviderError } from "~/providers/errors";
import type { NotaryEvent, NotaryProviderName } from "~/providers/notary/types";
import { sweepJob } from "../queue.server";
import { OPEN_STATUSES, removedFields, transactionFields } from "./notarize.server";
import { countedDelivery, deliverInBatches } from "../provider-events.server";

/**
 * What the notary tells us, and what we ask it on our own: its events (Proof's webhook, the
 * sandbox's kept events) applied once each, and a poll of the transactions still open.
 */

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

/**
 * POST /api/webhooks/notary: one delivery of the provider, read (signature checked) and
 * applied. Not found while the sandbox is the notary (it delivers its own); a bad signature
 * or an unreadable body is a 400.
 */
export async function receiveNotaryWebhook(services: AppServices, rawBody: string, headers: Headers) {
  if (services.providers.notarySandbox) throw notFound();
  return countedDelivery(services, services.providers.notary.name, async () => {
    // Refused before it is stored: its event would be kept whole, and a retry would fail the same.
    refuseNulInJsonText(rawBody);
    let event: NotaryEvent;
    try {
      event = services.providers.notary.readWebhook(rawBody, headers);
    } catch (error) {
      if (isProviderError(error, "invalid_signature")) throw invalid(error.message);
      throw error;
    }
    const { outcome } = await receiveNotaryEvent(services, event);
    return { result: { received: true, duplicate: outcome === "duplicate" }, outcome };
  });
}

/** Hands every event the sandbox notary has not delivered yet to the handler, oldest first. */
export function deliverNotarySandboxEvents(services: AppServices): Promise<number> {
  return deliverInBatches(services.providers.notarySandbox, (event) => receiveNotaryEvent(services, event));
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

export const notarySandboxEventsJob = sweepJob({
  name: "notary-sandbox-events",
  schedule: "* * * * *",
  enabled: (services) => services.providers.notarySandbox !== null,
  async run(services) {
    await deliverNotarySandboxEvents(services);
  },
});

export const notaryPollJob = sweepJob({
  name: "notary-poll",
  schedule: "*/5 * * * *",
  async run(services) {
    await pollOpenNotarizations(services);
  },
});
