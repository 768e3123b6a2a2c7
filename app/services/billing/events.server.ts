import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { webhookEvents } from "~/db/schema";
import { wellFormed, wellFormedJsonText } from "~/domain/requests";
import {
  applyCardUpdate,
  applyPaymentFailed,
  applyPaymentSucceeded,
  applyRefund,
  type AfterEvent,
  type Tx,
} from "./payment-records.server";
import { applyInvoiceFailed, applyInvoicePaid, applySubscription } from "./subscription-events.server";
import { enqueue } from "../queue.server";
import { paymentFailedNoticeJob, paymentReceiptJob } from "./notices.server";
import { mailingOrderPaidQueue } from "./mailing-queue.server";
import type { PaymentEvent } from "~/providers/payments/types";

/**
 * The one handler of what the payments provider tells us, for both adapters. Each event is
 * stored by its id (unique per provider) and applied in the same transaction: a retried or
 * replayed event finds itself stored and changes nothing; a failure stores nothing, so the
 * provider's retry (or the sandbox's next sweep) applies it again.
 */

export type { AfterEvent };

export type EventOutcome = { outcome: "applied" | "duplicate"; after: AfterEvent };

export async function applyPaymentEvent(db: Database, event: PaymentEvent): Promise<EventOutcome> {
  return db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(webhookEvents)
      .values({ provider: event.provider, eventId: event.id, type: event.providerType, payload: event })
      .onConflictDoNothing()
      .returning({ id: webhookEvents.id });
    const after: AfterEvent = { receipts: [], failedPayments: [], mailingCheckouts: [] };
    if (!stored) return { outcome: "duplicate" as const, after };
    await apply(tx, event, after);
    await tx.update(webhookEvents).set({ processedAt: new Date() }).where(eq(webhookEvents.id, stored.id));
    return { outcome: "applied" as const, after };
  });
}

/** What is known of a signed delivery the adapter could not read. */
export type UnreadableDelivery = { id: string | null; type: string | null; payload: unknown; message: string };

/**
 * PostgreSQL's text takes no NUL and no half of a character: each is kept as U+FFFD, so the
 * delivery is kept as sent otherwise.
 */
const storable = (text: string) => wellFormed(text.replaceAll("\0", "\uFFFD"));
/** Nor does jsonb, where they come escaped. */
const storableJson = (value: unknown): unknown =>
  JSON.parse(wellFormedJsonText(JSON.stringify(value ?? null).replace(/(?<!\\)((?:\\\\)*)\\u0000/g, "$1\\uFFFD")));

/**
 * Keeps a signed delivery that cannot be read for admins to see (once per event id, or per
 * body when it has none), marked by its error and left unapplied. Resending it would not
 * make it readable, so it is acknowledged; the dashboard counts these.
 */
export async function keepUnreadableEvent(
  services: AppServices,
  provider: PaymentEvent["provider"],
  rawBody: string,
  delivery: UnreadableDelivery,
): Promise<{ duplicate: boolean }> {
  const eventId =
    delivery.id ?? `unreadable_${createHash("sha256").update(rawBody, "utf8").digest("hex").slice(0, 40)}`;
  const [stored] = await services.db
    .insert(webhookEvents)
    .values({
      provider,
      eventId: storable(eventId),
      type: storable(delivery.type ?? "unreadable"),
      // The column takes no SQL NULL: a delivery that was JSON null is kept as its text.
      payload: delivery.payload === null ? { text: rawBody.slice(0, 100) } : storableJson(delivery.payload),
      error: storable(delivery.message),
    })
    .onConflictDoNothing()
    .returning({ id: webhookEvents.id });
  if (stored) {
    services.logger.warn(
      { provider, event: eventId, type: delivery.type, reason: delivery.message },
      "a signed webhook delivery could not be read: kept for admins",
    );
  }
  return { duplicate: !stored };
}

/** Applies the event, then queues its receipts and notices (background jobs, so a slow mail server waits for no one). */
export async function receivePaymentEvent(services: AppServices, event: PaymentEvent): Promise<EventOutcome> {
  const result = await applyPaymentEvent(services.db, await withDefaultCard(services, event));
  if (result.after.receipts.length > 0 || result.after.failedPayments.length > 0) {
    for (const paymentId of result.after.receipts) {
      await enqueue(services, paymentReceiptJob, { paymentId }, { singletonKey: `receipt:${paymentId}` });
    }
    for (const paymentId of result.after.failedPayments) {
      await enqueue(services, paymentFailedNoticeJob, { paymentId }, { singletonKey: `failed:${paymentId}` });
    }
  }
  for (const checkoutId of result.after.mailingCheckouts) {
    await enqueue(services, mailingOrderPaidQueue, { checkoutId }, { singletonKey: `mailing-paid:${checkoutId}` });
  }
  if (result.outcome === "applied") {
    services.logger.info({ event: event.id, type: event.type, provider: event.provider }, "payment event applied");
  }
  return result;
}

/**
 * A new card saved through a card update becomes the one later payments use (a provider call,
 * made before the event's transaction; making it the default twice changes nothing).
 */
async function withDefaultCard(services: AppServices, event: PaymentEvent): Promise<PaymentEvent> {
  if (event.type !== "card.updated" || !event.card.paymentMethodRef) return event;
  const card = await services.providers.payments.setDefaultCard(event.card.customerRef, event.card.paymentMethodRef);
  return { ...event, card: { ...event.card, card: card ?? event.card.card } };
}

async function apply(tx: Tx, event: PaymentEvent, after: AfterEvent): Promise<void> {
  switch (event.type) {
    case "subscription.created":
    case "subscription.updated":
    case "subscription.deleted":
      await applySubscription(tx, event.provider, event.subscription, event.type === "subscription.deleted");
      return;
    case "invoice.paid":
      await applyInvoicePaid(tx, event.provider, event.invoice, after);
      return;
    case "invoice.payment_failed":
      await applyInvoiceFailed(tx, event, event.invoice, after);
      return;
    case "payment.succeeded":
      await applyPaymentSucceeded(tx, event.provider, event.payment, after);
      return;
    case "payment.failed":
      await applyPaymentFailed(tx, event.provider, event.payment);
      return;
    case "charge.refunded":
      await applyRefund(tx, event.provider, event.refund);
      return;
    case "card.updated":
      await applyCardUpdate(tx, event.provider, event.card);
      return;
    case "other":
      return;
  }
}
