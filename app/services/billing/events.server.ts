import { endComplimentaryOf } from "./complimentary.server";
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { checkouts, coupons, payments, plans, subscriptions, webhookEvents } from "~/db/schema";
import { couponPayments, renewalAmount } from "~/domain/billing";
import { wellFormed, wellFormedJsonText } from "~/domain/requests";
import {
  applyCardUpdate,
  applyPaymentFailed,
  applyPaymentSucceeded,
  applyRefund,
  checkoutOf,
  rememberCard,
  settleCheckout,
  type AfterEvent,
  type Tx,
} from "./payment-records.server";
import { enqueue } from "../queue.server";
import { paymentFailedNoticeJob, paymentReceiptJob } from "./notices.server";
import type { InvoiceData, PaymentEvent, SubscriptionData } from "~/providers/payments/types";

/**
 * The one handler of what the payments provider tells us, for both adapters. Each event is
 * stored by its id (unique per provider) and applied in the same transaction: a retried or
 * replayed event finds itself stored and changes nothing; a failure stores nothing, so the
 * provider's retry (or the sandbox's next sweep) applies it again.
 */

type SubscriptionRow = typeof subscriptions.$inferSelect;

export type { AfterEvent };

export type EventOutcome = { outcome: "applied" | "duplicate"; after: AfterEvent };

export async function applyPaymentEvent(db: Database, event: PaymentEvent): Promise<EventOutcome> {
  return db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(webhookEvents)
      .values({ provider: event.provider, eventId: event.id, type: event.providerType, payload: event })
      .onConflictDoNothing()
      .returning({ id: webhookEvents.id });
    const after: AfterEvent = { receipts: [], failedPayments: [] };
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

async function subscriptionOf(
  tx: Tx,
  provider: PaymentEvent["provider"],
  ref: string,
  metadata: Record<string, string>,
): Promise<SubscriptionRow | null> {
  const [found] = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, ref)))
    .for("update");
  if (found) return found;
  // The first event of a subscription we started: its checkout says whose it is.
  const checkout = await checkoutOf(tx, metadata);
  if (!checkout?.userId || !checkout.planId) return null;
  const [coupon] = checkout.couponId ? await tx.select().from(coupons).where(eq(coupons.id, checkout.couponId)) : [];
  const [plan] = await tx.select().from(plans).where(eq(plans.id, checkout.planId));
  const couponPaymentsLeft = coupon ? couponPayments(coupon, plan?.interval ?? null) : null;
  const [made] = await tx
    .insert(subscriptions)
    .values({
      userId: checkout.userId,
      planId: checkout.planId,
      status: "INCOMPLETE",
      provider,
      providerCustomerId: checkout.providerCustomerId,
      providerSubscriptionId: ref,
      couponId: checkout.couponId,
      couponPaymentsLeft,
      listAmountCents: checkout.listAmountCents,
      amountCents: checkout.amountCents,
      currency: checkout.currency,
      checkoutId: checkout.id,
    })
    .onConflictDoNothing()
    .returning();
  if (made) {
    await tx.update(checkouts).set({ subscriptionId: made.id }).where(eq(checkouts.id, checkout.id));
    return made;
  }
  // Another delivery of the subscription's events made it meanwhile (its insert came first, and
  // this one waited for it): that row is the one.
  const [theirs] = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, ref)))
    .for("update");
  return theirs ?? null;
}

/** A coupon row's discount in the domain's terms. */
function couponOff(coupon: typeof coupons.$inferSelect | undefined) {
  return coupon
    ? { amountOff: coupon.amountOff, percentOff: coupon.percentOff === null ? null : Number(coupon.percentOff) }
    : null;
}

async function applySubscription(
  tx: Tx,
  provider: PaymentEvent["provider"],
  data: SubscriptionData,
  deleted: boolean,
): Promise<void> {
  const row = await subscriptionOf(tx, provider, data.ref, data.metadata);
  if (!row) return;
  const status = deleted ? "CANCELED" : data.status;
  const planId = data.planId && data.planId !== row.planId ? await existingPlan(tx, data.planId) : null;
  await tx
    .update(subscriptions)
    .set({
      status,
      currentPeriodStart: data.currentPeriodStart ?? row.currentPeriodStart,
      currentPeriodEnd: data.currentPeriodEnd ?? row.currentPeriodEnd,
      cancelAtPeriodEnd: deleted ? false : data.cancelAtPeriodEnd,
      canceledAt: data.canceledAt ?? (deleted ? new Date() : data.cancelAtPeriodEnd ? row.canceledAt : null),
      endedAt: data.endedAt ?? (deleted ? new Date() : null),
      pastDueSince: status === "PAST_DUE" ? (row.pastDueSince ?? new Date()) : null,
      providerCustomerId: row.providerCustomerId ?? data.customerRef,
      ...(planId ? await planPrices(tx, planId, row) : {}),
    })
    .where(eq(subscriptions.id, row.id));
  // Paid for: a complimentary membership it replaces ends, so the member has one (decision 037).
  if (status === "ACTIVE" || status === "TRIALING") await endComplimentaryOf(tx, row.userId);
}

async function existingPlan(tx: Tx, planId: string): Promise<string | null> {
  const [plan] = await tx.select({ id: plans.id }).from(plans).where(eq(plans.id, planId));
  return plan?.id ?? null;
}

/** A change of plan: the new plan's price, with the coupon if it still lowers it. */
async function planPrices(tx: Tx, planId: string, row: SubscriptionRow) {
  const [plan] = await tx.select().from(plans).where(eq(plans.id, planId));
  const list = plan?.amountCents ?? row.listAmountCents ?? 0;
  const [coupon] = row.couponId ? await tx.select().from(coupons).where(eq(coupons.id, row.couponId)) : [];
  const off = couponOff(coupon);
  return { planId, listAmountCents: list, amountCents: renewalAmount(list, off, row.couponPaymentsLeft) };
}

async function applyInvoicePaid(
  tx: Tx,
  provider: PaymentEvent["provider"],
  invoice: InvoiceData,
  after: AfterEvent,
): Promise<void> {
  const row = await subscriptionOf(tx, provider, invoice.subscriptionRef, invoice.metadata);
  if (!row) return;
  const discounted = invoice.amountCents < invoice.subtotalCents;
  const checkout = invoice.billingReason === "subscription_create" ? await checkoutOf(tx, invoice.metadata) : null;
  const [payment] = await tx
    .insert(payments)
    .values({
      userId: row.userId,
      planId: row.planId,
      kind: "subscription",
      subscriptionId: row.id,
      checkoutId: checkout?.id ?? null,
      couponId: discounted ? row.couponId : null,
      listAmountCents: invoice.subtotalCents,
      amountCents: invoice.amountCents,
      currency: invoice.currency,
      status: "succeeded",
      provider,
      providerRef: invoice.ref,
      cardBrand: invoice.card?.brand ?? null,
      cardLast4: invoice.card?.last4 ?? null,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
    })
    .onConflictDoNothing()
    .returning({ id: payments.id });
  if (!payment) return;
  const couponPaymentsLeft =
    row.couponId && discounted && row.couponPaymentsLeft !== null
      ? Math.max(0, row.couponPaymentsLeft - 1)
      : row.couponPaymentsLeft;
  const [coupon] = row.couponId ? await tx.select().from(coupons).where(eq(coupons.id, row.couponId)) : [];
  const off = couponOff(coupon);
  await tx
    .update(subscriptions)
    .set({
      status: "ACTIVE",
      pastDueSince: null,
      currentPeriodStart: invoice.periodStart ?? row.currentPeriodStart,
      currentPeriodEnd: invoice.periodEnd ?? row.currentPeriodEnd,
      couponPaymentsLeft,
      amountCents: renewalAmount(row.listAmountCents ?? invoice.subtotalCents, off, couponPaymentsLeft),
    })
    .where(eq(subscriptions.id, row.id));
  if (checkout) await settleCheckout(tx, checkout, { subscriptionId: row.id, paymentId: payment.id });
  if (invoice.card) await rememberCard(tx, provider, invoice.customerRef, invoice.card);
  if (invoice.amountCents > 0) after.receipts.push(payment.id);
}

async function applyInvoiceFailed(tx: Tx, event: PaymentEvent, invoice: InvoiceData, after: AfterEvent): Promise<void> {
  const row = await subscriptionOf(tx, event.provider, invoice.subscriptionRef, invoice.metadata);
  if (!row) return;
  if (invoice.billingReason === "subscription_create") {
    // The first payment failed: the checkout says why; the subscription stays INCOMPLETE.
    const checkout = await checkoutOf(tx, invoice.metadata);
    if (checkout && checkout.status !== "succeeded") {
      await tx
        .update(checkouts)
        .set({ status: "failed", failureMessage: invoice.failureMessage })
        .where(eq(checkouts.id, checkout.id));
    }
    return;
  }
  const [payment] = await tx
    .insert(payments)
    .values({
      userId: row.userId,
      planId: row.planId,
      kind: "subscription",
      subscriptionId: row.id,
      listAmountCents: invoice.subtotalCents,
      amountCents: invoice.amountCents,
      currency: invoice.currency,
      status: "failed",
      provider: event.provider,
      // A failed try of an invoice that a later try may pay: one row per try.
      providerRef: `${invoice.ref}#${event.id}`,
      cardBrand: invoice.card?.brand ?? null,
      cardLast4: invoice.card?.last4 ?? null,
      failureMessage: invoice.failureMessage,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
    })
    .onConflictDoNothing()
    .returning({ id: payments.id });
  if (row.status === "ACTIVE" || row.status === "TRIALING") {
    await tx
      .update(subscriptions)
      .set({ status: "PAST_DUE", pastDueSince: row.pastDueSince ?? event.occurredAt })
      .where(eq(subscriptions.id, row.id));
  }
  if (payment) after.failedPayments.push(payment.id);
}
