import { and, eq, inArray, isNull } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { checkouts, mailingOrders, mailings } from "~/db/schema";
import { isDomainError } from "~/domain/errors";
import type { PostalAddress } from "~/domain/mailing/address";
import { refundFromCheckout } from "../billing/mailing-checkout.server";
import { mailingOrderPaidQueue } from "../billing/mailing-queue.server";
import { enqueue, type JobDefinition } from "../queue.server";
import { sendRoundLetters, type LetterOutcome } from "./send.server";

/**
 * What follows a paid order, in the background: its letters sent (one per respondent, exactly
 * once, however often this runs), and what is owed back given back — a letter the member
 * cancelled or the mail house refused, or a payment that found no order waiting for it.
 */

export type OrderRow = typeof mailingOrders.$inferSelect;

/** A letter the member confirmed: the address it goes to. */
export type ConfirmedLetter = { slot: number; address: PostalAddress };

/** The confirmed letters an order keeps beside its recipients. */
export function confirmedLetters(order: OrderRow): ConfirmedLetter[] {
  return order.recipients
    .map((r) => (r as { slot: number; confirmed?: PostalAddress | null }) ?? null)
    .filter((r): r is { slot: number; confirmed: PostalAddress } => Boolean(r?.confirmed))
    .map((r) => ({ slot: r.slot, address: r.confirmed }));
}

/** The refund key of a letter: the same for its cancel and its refusal, so it is paid back once. */
export const letterRefundKey = (mailingId: string) => `mailing-refund:${mailingId}`;

/**
 * Sends the paid order's letters. A letter the mail house could not be asked for now throws
 * (the job tries again; nothing is sent twice). Letters refused are refunded. The order is
 * "sent" once every letter has its answer.
 */
export async function sendOrder(services: AppServices, order: OrderRow): Promise<LetterOutcome[]> {
  const letters = confirmedLetters(order);
  let outcomes: LetterOutcome[];
  try {
    outcomes = await sendRoundLetters(
      services,
      { id: order.userId },
      {
        causeCode: order.causeCode,
        version: order.descriptiveVersion,
        round: order.round,
        from: order.fromAddress!,
        prices: { perEnvelopeCents: order.perEnvelopeCents, currency: "usd" },
        orderId: order.id,
      },
      letters,
    );
  } catch (error) {
    // The round moved on before the letters could go (it was mailed by hand meanwhile): what was paid goes back.
    if (!isDomainError(error) || (error.kind !== "conflict" && error.kind !== "not-found")) throw error;
    await refundUnsent(services, order, letters);
    await markSent(services, order);
    return [];
  }
  for (const outcome of outcomes) {
    if (outcome.outcome === "refused") await queueRefund(services, outcome.mailing.id);
  }
  const waiting = outcomes.filter((o) => o.outcome === "unavailable" || o.outcome === "in_progress");
  if (waiting.length > 0) throw new Error(`${waiting.length} letters of order ${order.id} are not sent yet`);
  await markSent(services, order);
  return outcomes;
}

async function markSent(services: AppServices, order: OrderRow) {
  await services.db
    .update(mailingOrders)
    .set({ status: "sent" })
    .where(and(eq(mailingOrders.id, order.id), eq(mailingOrders.status, "paid")));
}

/** Gives back each confirmed letter that has no letter made, under a key of its own. */
async function refundUnsent(services: AppServices, order: OrderRow, letters: readonly ConfirmedLetter[]) {
  if (!order.checkoutId || order.perEnvelopeCents === 0) return;
  const made = await services.db
    .select({ slot: mailings.slot })
    .from(mailings)
    .where(
      and(
        eq(mailings.orderId, order.id),
        inArray(mailings.state, ["created", "mailed", "in_transit", "delivered", "returned_to_sender"]),
      ),
    );
  const sent = new Set(made.map((m) => m.slot));
  for (const letter of letters.filter((l) => !sent.has(l.slot))) {
    await refundFromCheckout(services, order.checkoutId, {
      key: `mailing-order-refund:${order.id}:s${letter.slot}`,
      cents: order.perEnvelopeCents,
      metadata: { mailing_order: order.id, slot: String(letter.slot) },
    });
  }
}

/** A paid checkout's order, now paid; its letters follow. A payment no order waits for is given back. */
export async function orderPaid(services: AppServices, checkoutId: string): Promise<OrderRow | null> {
  const [order] = await services.db
    .update(mailingOrders)
    .set({ status: "paid", paidAt: new Date() })
    .where(and(eq(mailingOrders.checkoutId, checkoutId), inArray(mailingOrders.status, ["paying", "paid"])))
    .returning();
  if (order) return order;
  const [other] = await services.db.select().from(mailingOrders).where(eq(mailingOrders.checkoutId, checkoutId));
  if (other?.status === "sent") return null;
  const [checkout] = await services.db.select().from(checkouts).where(eq(checkouts.id, checkoutId));
  services.logger.warn({ checkout: checkoutId }, "a mailing payment found no order waiting: it is refunded");
  if (checkout && checkout.amountCents > 0)
    await refundFromCheckout(services, checkoutId, {
      key: `mailing-order-refund:${checkoutId}`,
      cents: checkout.amountCents,
      metadata: { checkout_id: checkoutId },
    });
  return null;
}

export const mailingOrderPaidJob = {
  ...mailingOrderPaidQueue,
  async run(services, { checkoutId }) {
    const order = await orderPaid(services, checkoutId);
    if (order) await sendOrder(services, order);
  },
} satisfies JobDefinition<{ checkoutId: string }>;

/** An order the community pays for (a price of nothing): sent as soon as it is confirmed. */
export const mailingOrderSendJob = {
  name: "mailing-order-send",
  data: z.object({ orderId: z.string().uuid() }),
  retry: { limit: 10, delaySeconds: 10 },
  async run(services, { orderId }) {
    const [order] = await services.db.select().from(mailingOrders).where(eq(mailingOrders.id, orderId));
    if (order?.status === "paid") await sendOrder(services, order);
  },
} satisfies JobDefinition<{ orderId: string }>;

/**
 * Gives back what one letter cost, once: a letter cancelled before print, or refused by the
 * mail house. Nothing is owed for a letter the community paid for.
 */
export async function refundLetter(services: AppServices, mailingId: string): Promise<boolean> {
  const [row] = await services.db
    .select({ mailing: mailings, checkoutId: mailingOrders.checkoutId })
    .from(mailings)
    .leftJoin(mailingOrders, eq(mailingOrders.id, mailings.orderId))
    .where(eq(mailings.id, mailingId));
  if (!row || row.mailing.refundedAt) return false;
  const { mailing } = row;
  if (mailing.state !== "cancelled" && mailing.state !== "failed") return false;
  if (!row.checkoutId || mailing.costCents === 0) return false;
  const refund = await refundFromCheckout(services, row.checkoutId, {
    key: letterRefundKey(mailing.id),
    cents: mailing.costCents,
    metadata: { mailing: mailing.id },
  });
  if (!refund) return false;
  await services.db
    .update(mailings)
    .set({ refundedAt: new Date(), refundRef: refund.refundRef })
    .where(and(eq(mailings.id, mailing.id), isNull(mailings.refundedAt)));
  return true;
}

export const mailingRefundJob = {
  name: "mailing-refund",
  data: z.object({ mailingId: z.string().uuid() }),
  retry: { limit: 10, delaySeconds: 60 },
  async run(services, { mailingId }) {
    await refundLetter(services, mailingId);
  },
} satisfies JobDefinition<{ mailingId: string }>;

/** Queues a letter's refund (once per letter, however often it is asked). */
export async function queueRefund(services: AppServices, mailingId: string): Promise<void> {
  await enqueue(services, mailingRefundJob, { mailingId }, { singletonKey: letterRefundKey(mailingId) });
}
