import { and, eq } from "drizzle-orm";
import { checkouts, coupons, plans, subscriptions } from "~/db/schema";
import { couponPayments, renewalAmount } from "~/domain/billing";
import type { InvoiceData, PaymentEvent, SubscriptionData } from "~/providers/payments/types";
import { endComplimentaryOf } from "./complimentary.server";
import {
  checkoutOf,
  paidWith,
  recordPayment,
  rememberCard,
  settleCheckout,
  type AfterEvent,
  type Tx,
} from "./payment-records.server";

/**
 * The payments provider's subscription and invoice events, as the one handler
 * (events.server.ts) applies them in its transaction: the subscription's row, made by its
 * first event, and the payments of its invoices.
 */

type SubscriptionRow = typeof subscriptions.$inferSelect;

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

export async function applySubscription(
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

/** An invoice's payment of the subscription: its plan, amounts, card and period. */
function invoicePayment(row: SubscriptionRow, invoice: InvoiceData) {
  return {
    userId: row.userId,
    planId: row.planId,
    kind: "subscription" as const,
    subscriptionId: row.id,
    listAmountCents: invoice.subtotalCents,
    ...paidWith(invoice),
    periodStart: invoice.periodStart,
    periodEnd: invoice.periodEnd,
  };
}

export async function applyInvoicePaid(
  tx: Tx,
  provider: PaymentEvent["provider"],
  invoice: InvoiceData,
  after: AfterEvent,
): Promise<void> {
  const row = await subscriptionOf(tx, provider, invoice.subscriptionRef, invoice.metadata);
  if (!row) return;
  const discounted = invoice.amountCents < invoice.subtotalCents;
  const checkout = invoice.billingReason === "subscription_create" ? await checkoutOf(tx, invoice.metadata) : null;
  const payment = await recordPayment(tx, {
    ...invoicePayment(row, invoice),
    checkoutId: checkout?.id ?? null,
    couponId: discounted ? row.couponId : null,
    status: "succeeded",
    provider,
    providerRef: invoice.ref,
  });
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

export async function applyInvoiceFailed(
  tx: Tx,
  event: PaymentEvent,
  invoice: InvoiceData,
  after: AfterEvent,
): Promise<void> {
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
  const payment = await recordPayment(tx, {
    ...invoicePayment(row, invoice),
    status: "failed",
    provider: event.provider,
    // A failed try of an invoice that a later try may pay: one row per try.
    providerRef: `${invoice.ref}#${event.id}`,
    failureMessage: invoice.failureMessage,
  });
  if (row.status === "ACTIVE" || row.status === "TRIALING") {
    await tx
      .update(subscriptions)
      .set({ status: "PAST_DUE", pastDueSince: row.pastDueSince ?? event.occurredAt })
      .where(eq(subscriptions.id, row.id));
  }
  if (payment) after.failedPayments.push(payment.id);
}
