import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { checkouts, payments } from "~/db/schema";
import { MAILING_PAYMENT_TITLE } from "~/domain/billing";
import { conflict } from "~/domain/errors";
import { audit, actorOf } from "../audit.server";
import type { Viewer } from "../session.server";
import { callProvider, checkoutFailed, customerFor, startedCheckout, type CheckoutRow } from "./checkout.server";
import { deliverSandboxEvents } from "./sandbox.server";

/**
 * Paying for letters mailed from the app: a one-off payment of the quote's total through the
 * same checkout as a credit or a donation (the card page, 3-D Secure, the return page), its
 * id the idempotency key. Its payment event marks the order paid (payment-records.server.ts),
 * and a cancelled or refused letter is given back from it (`refundFromCheckout`).
 */

/** Starts (or finds again) the checkout of one order's pay form. */
export async function startMailingCheckout(
  services: AppServices,
  viewer: Viewer,
  input: { attempt: string; amountCents: number; envelopes: number; orderId: string; returnPath: string },
): Promise<CheckoutRow> {
  const { db } = services;
  const provider = services.providers.payments;
  const member = viewer.member;
  const [again] = await db.select().from(checkouts).where(eq(checkouts.id, input.attempt));
  if (again) {
    if (again.userId !== member.id || again.kind !== "mailing")
      throw conflict("This payment was started elsewhere: reload the page.");
    return startedCheckout(services, again);
  }
  const customerRef = await customerFor(services, { viewer });
  const [checkout] = await db
    .insert(checkouts)
    .values({
      id: input.attempt,
      userId: member.id,
      email: member.email,
      kind: "mailing",
      planId: null,
      listAmountCents: input.amountCents,
      amountCents: input.amountCents,
      currency: "usd",
      provider: provider.name,
      providerCustomerId: customerRef,
      returnPath: input.returnPath,
    })
    .onConflictDoNothing()
    .returning();
  if (!checkout) return startMailingCheckout(services, viewer, input);
  try {
    const intent = await callProvider(() =>
      provider.startPayment({
        customerRef,
        email: member.email,
        amountCents: input.amountCents,
        currency: "usd",
        description: `${MAILING_PAYMENT_TITLE} (${input.envelopes} ${input.envelopes === 1 ? "envelope" : "envelopes"})`,
        idempotencyKey: checkout.id,
        metadata: { checkout_id: checkout.id, user_id: member.id, mailing_order: input.orderId },
      }),
    );
    const [updated] = await db
      .update(checkouts)
      .set({ providerRef: intent.intentRef, clientSecret: intent.clientSecret, status: "open" })
      .where(eq(checkouts.id, checkout.id))
      .returning();
    await audit(db, actorOf(viewer), "checkout.start", "checkout", checkout.id, {
      kind: "mailing",
      amountCents: input.amountCents,
      order: input.orderId,
    });
    await deliverSandboxEvents(services);
    return updated!;
  } catch (error) {
    await checkoutFailed(services, checkout.id, error);
    throw error;
  }
}

/**
 * Gives back `cents` of the checkout's payment, once per `key` however often it is asked (the
 * provider's idempotency key). Answers the provider's refund, or null when the checkout has no
 * succeeded payment to refund from.
 */
export async function refundFromCheckout(
  services: AppServices,
  checkoutId: string,
  refund: { key: string; cents: number; metadata: Record<string, string> },
): Promise<{ refundRef: string } | null> {
  const [payment] = await services.db
    .select({ ref: payments.providerRef, provider: payments.provider })
    .from(payments)
    .where(eq(payments.checkoutId, checkoutId));
  if (!payment?.ref || payment.provider !== services.providers.payments.name) return null;
  const made = await services.providers.payments.refundPayment({
    intentRef: payment.ref,
    amountCents: refund.cents,
    idempotencyKey: refund.key,
    metadata: refund.metadata,
  });
  await deliverSandboxEvents(services);
  return { refundRef: made.refundRef };
}
