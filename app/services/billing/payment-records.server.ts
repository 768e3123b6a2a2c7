import { and, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { billingCustomers, checkouts, couponRedemptions, coupons, payments, users } from "~/db/schema";
import { creditPurchase } from "./credits.server";
import type { CardUpdateData, PaymentData, PaymentEvent, RefundData } from "~/providers/payments/types";

/**
 * The payments a provider's events record: one-off payments and their refunds, the card on
 * file, and the checkout each settles (events.server.ts dispatches the events here).
 */

export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
export type CheckoutRow = typeof checkouts.$inferSelect;

/** What to do once the event's transaction has committed. */
export type AfterEvent = {
  receipts: string[];
  failedPayments: string[];
  /** Checkouts of letters to mail, paid: their letters are sent by a job. */
  mailingCheckouts: string[];
};

/** A provider's word on a payment's amount and card, as its payment row keeps them. */
export function paidWith(data: Pick<PaymentData, "amountCents" | "currency" | "card">) {
  return {
    amountCents: data.amountCents,
    currency: data.currency,
    cardBrand: data.card?.brand ?? null,
    cardLast4: data.card?.last4 ?? null,
  };
}

/** Records a payment once: null when a payment of its provider reference is already recorded. */
export async function recordPayment(tx: Tx, values: typeof payments.$inferInsert): Promise<{ id: string } | null> {
  const [payment] = await tx.insert(payments).values(values).onConflictDoNothing().returning({ id: payments.id });
  return payment ?? null;
}

/** The checkout an event's metadata names, locked for the transaction. */
export async function checkoutOf(tx: Tx, metadata: Record<string, string>): Promise<CheckoutRow | null> {
  const id = metadata.checkout_id;
  if (!id || !/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await tx.select().from(checkouts).where(eq(checkouts.id, id)).for("update");
  return row ?? null;
}

export async function applyPaymentSucceeded(
  tx: Tx,
  provider: PaymentEvent["provider"],
  data: PaymentData,
  after: AfterEvent,
): Promise<void> {
  const checkout = await checkoutOf(tx, data.metadata);
  if (!checkout || checkout.kind === "subscription" || checkout.kind === "card") return;
  const payment = await recordPayment(tx, {
    userId: checkout.userId,
    email: checkout.email,
    planId: checkout.planId,
    kind: checkout.kind,
    checkoutId: checkout.id,
    couponId: checkout.couponId,
    listAmountCents: checkout.listAmountCents,
    ...paidWith(data),
    status: "succeeded",
    provider,
    providerRef: data.ref,
  });
  if (!payment) return;
  await creditPurchase(tx, { id: payment.id, userId: checkout.userId, kind: checkout.kind });
  await settleCheckout(tx, checkout, { paymentId: payment.id });
  if (data.card && data.customerRef) await rememberCard(tx, provider, data.customerRef, data.card);
  after.receipts.push(payment.id);
  if (checkout.kind === "mailing") after.mailingCheckouts.push(checkout.id);
}

export async function applyPaymentFailed(tx: Tx, provider: PaymentEvent["provider"], data: PaymentData): Promise<void> {
  const checkout = await checkoutOf(tx, data.metadata);
  if (!checkout || checkout.provider !== provider || checkout.status === "succeeded") return;
  await tx
    .update(checkouts)
    .set({ status: "failed", failureMessage: data.failureMessage })
    .where(eq(checkouts.id, checkout.id));
}

export async function applyRefund(tx: Tx, provider: PaymentEvent["provider"], refund: RefundData): Promise<void> {
  const [payment] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.provider, provider), eq(payments.providerRef, refund.paymentRef)))
    .for("update");
  if (!payment) return;
  const refunded = Math.min(payment.amountCents, refund.amountRefundedCents);
  await tx
    .update(payments)
    .set({ refundedCents: refunded, status: refunded >= payment.amountCents ? "refunded" : payment.status })
    .where(eq(payments.id, payment.id));
}

export async function applyCardUpdate(tx: Tx, provider: PaymentEvent["provider"], data: CardUpdateData): Promise<void> {
  if (data.card) await rememberCard(tx, provider, data.customerRef, data.card);
  const checkout = await checkoutOf(tx, data.metadata);
  if (checkout?.kind === "card") await settleCheckout(tx, checkout, {});
}

export async function rememberCard(
  tx: Tx,
  provider: PaymentEvent["provider"],
  customerRef: string,
  card: { brand: string; last4: string; expMonth?: number; expYear?: number },
): Promise<void> {
  await tx
    .update(billingCustomers)
    .set({
      cardBrand: card.brand,
      cardLast4: card.last4,
      ...(card.expMonth ? { cardExpMonth: card.expMonth, cardExpYear: card.expYear } : {}),
    })
    .where(and(eq(billingCustomers.provider, provider), eq(billingCustomers.providerCustomerId, customerRef)));
}

/** A checkout that the provider says is paid: done, and its coupon counted once. */
export async function settleCheckout(
  tx: Tx,
  checkout: CheckoutRow,
  links: { subscriptionId?: string; paymentId?: string },
): Promise<void> {
  await tx
    .update(checkouts)
    .set({ status: "succeeded", failureMessage: null, ...links })
    .where(eq(checkouts.id, checkout.id));
  // Setup's membership step is its last: a member who paid there is done with setup.
  if (checkout.userId && checkout.kind !== "card") {
    await tx
      .update(users)
      .set({ needsSetup: false, setupStep: null })
      .where(and(eq(users.id, checkout.userId), eq(users.needsSetup, true), eq(users.setupStep, "membership")));
  }
  if (!checkout.couponId) return;
  const [redeemed] = await tx
    .insert(couponRedemptions)
    .values({
      couponId: checkout.couponId,
      couponDiscountId: checkout.couponDiscountId,
      checkoutId: checkout.id,
      userId: checkout.userId,
      email: checkout.email,
      listAmountCents: checkout.listAmountCents,
      amountCents: checkout.amountCents,
      currency: checkout.currency,
    })
    .onConflictDoNothing()
    .returning({ id: couponRedemptions.id });
  if (redeemed) {
    await tx
      .update(coupons)
      .set({ timesRedeemed: sql`${coupons.timesRedeemed} + 1`, lastRedeemedAt: new Date() })
      .where(eq(coupons.id, checkout.couponId));
  }
}
