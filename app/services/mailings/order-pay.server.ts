import { and, eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { checkouts, mailingOrders } from "~/db/schema";
import { conflict, invalid, unavailable } from "~/domain/errors";
import { chosen, confirmedAddresses } from "~/domain/mailing/order";
import { quoteMailing } from "~/domain/mailing/quote";
import { formatMoney } from "~/lib/format";
import { isProviderError } from "~/providers/errors";
import { startMailingCheckout } from "../billing/mailing-checkout.server";
import { checkoutPagePath } from "../billing/pages.server";
import { requireSigned } from "../documents/signatures.server";
import type { PageAddress } from "../nol/pages.server";
import { enqueue } from "../queue.server";
import type { Viewer } from "../session.server";
import { roundName } from "~/domain/nol/timeline";
import { actorOf, audit } from "../audit.server";
import { cancelLetter, type CancelledLetter } from "./cancel.server";
import { MAIL_HOUSE_DOWN, placeOf, recipientsOf } from "./order.server";
import { mailingOrderSendJob, queueRefund } from "./order-jobs.server";
import { mailingSettings } from "./settings.server";

/**
 * The mail page's forms once the addresses are checked: paying for the letters (or sending
 * them at once when the community pays), going back to the addresses from an unfinished
 * payment, and cancelling a letter before print with its price refunded.
 */

type Input = { cause: string; version: unknown };

/**
 * The confirm form: each chosen letter's address confirmed, the price as quoted now, then the
 * checkout (or, when the community pays, the letters at once). A second submit of the same
 * form (its attempt) is the same payment. Answers where to go next.
 */
export async function payOrder(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: Input & { form: FormData; attempt: string; pagePath: string },
): Promise<{ next: string }> {
  const { state, round, mailing, order } = await placeOf(services, viewer, address, input);
  if (order && order.status !== "draft") {
    if (order.checkoutId === input.attempt) {
      const [checkout] = await services.db.select().from(checkouts).where(eq(checkouts.id, order.checkoutId));
      return { next: checkout ? checkoutPagePath(checkout) : input.pagePath };
    }
    // The same form sent again once its letters are on their way (a double click): the page shows them.
    if (order.status === "paid" || order.status === "sent") return { next: input.pagePath };
    throw conflict("These letters are being paid for in another window: reload the page.");
  }
  if (!order || !round || !mailing) throw conflict(`The next step of this version is ${state.step.label}.`);
  // Nothing is paid for (or sent free) before the member signed what is mailed.
  await requireSigned(services.db, order.entryId, order.round);
  const settings = await mailingSettings(services);
  const recipients = recipientsOf(order);
  const confirmed = confirmedAddresses(recipients, input.form);
  if (!confirmed.ok) throw invalid(confirmed.message);
  if (!order.fromAddress) throw invalid("Check the addresses first, with your return address");
  const bySlot = new Map(confirmed.letters.map((l) => [l.slot, l.address]));
  const quote = quoteMailing(
    settings.prices,
    chosen(recipients).map((r) => r.respondent),
  );
  const values = {
    recipients: recipients.map((r) => ({ ...r, confirmed: bySlot.get(r.slot) ?? null })),
    perEnvelopeCents: quote.perEnvelopeCents,
    totalCents: quote.totalCents,
  };
  if (quote.totalCents === 0) {
    const [paid] = await services.db
      .update(mailingOrders)
      .set({ ...values, status: "paid", paidAt: new Date() })
      .where(and(eq(mailingOrders.id, order.id), eq(mailingOrders.status, "draft")))
      .returning();
    if (paid)
      await enqueue(services, mailingOrderSendJob, { orderId: paid.id }, { singletonKey: `mailing-send:${paid.id}` });
    return { next: input.pagePath };
  }
  const checkout = await startMailingCheckout(services, viewer, {
    attempt: input.attempt,
    amountCents: quote.totalCents,
    envelopes: quote.envelopes,
    orderId: order.id,
    returnPath: input.pagePath,
  });
  const [paying] = await services.db
    .update(mailingOrders)
    .set({ ...values, status: "paying", checkoutId: checkout.id })
    .where(and(eq(mailingOrders.id, order.id), eq(mailingOrders.status, "draft")))
    .returning();
  if (!paying) {
    // The same form sent twice: the first submit's checkout is this one.
    const [now] = await services.db.select().from(mailingOrders).where(eq(mailingOrders.id, order.id));
    if (now?.checkoutId !== checkout.id)
      throw conflict("These letters are being paid for in another window: reload the page.");
  }
  return { next: checkoutPagePath(checkout) };
}

/** Back to the addresses from a payment not finished (its checkout never charged). */
export async function reopenOrder(services: AppServices, viewer: Viewer, address: PageAddress, input: Input) {
  const { order } = await placeOf(services, viewer, address, input);
  if (!order || order.status !== "paying") return;
  const [checkout] = order.checkoutId
    ? await services.db.select().from(checkouts).where(eq(checkouts.id, order.checkoutId))
    : [];
  if (checkout && (checkout.status === "succeeded" || checkout.status === "processing"))
    throw conflict("This payment went through: your letters are being sent.");
  await services.db
    .update(mailingOrders)
    .set({ status: "draft", checkoutId: null })
    .where(and(eq(mailingOrders.id, order.id), eq(mailingOrders.status, "paying")));
}

/** Cancels one of the member's letters before print; its cost is given back by a job. */
export async function cancelOrderLetter(services: AppServices, viewer: Viewer, mailingId: string) {
  let outcome;
  try {
    outcome = await cancelLetter(services, viewer.member, mailingId);
  } catch (error) {
    if (isProviderError(error, "provider_unavailable")) throw unavailable(MAIL_HOUSE_DOWN);
    throw error;
  }
  if (outcome.outcome === "refused") throw conflict(outcome.message);
  if (outcome.refund.cents > 0) await queueRefund(services, mailingId);
  const refund = outcome.refund.cents > 0 ? formatMoney(outcome.refund.cents, "usd") : null;
  if (outcome.first) await cancelled(services, viewer, outcome.letter, refund);
  return refund ? `The letter is cancelled: ${refund} is refunded to your card.` : "The letter is cancelled.";
}

/** A letter just cancelled: in the audit log, and an e-mail to the member saying what is given back. */
async function cancelled(services: AppServices, viewer: Viewer, letter: CancelledLetter, refund: string | null) {
  await audit(services.db, actorOf(viewer), "mailing.cancel", "mailing", letter.id, {
    round: letter.round,
    slot: letter.slot,
    to: letter.to,
    version: letter.version,
    refund,
  });
  const name = roundName(letter.round);
  await services.providers.mail.send({
    to: viewer.member.email,
    template: "mailing-cancelled",
    subject: `Your ${name} to ${letter.to} is cancelled`,
    text: [
      `Your ${name} to ${letter.to} (${letter.version}) is cancelled: the mail house will not print or mail it.`,
      refund
        ? `${refund} is refunded to the card you paid with; it shows on your statement in 5 to 10 days.`
        : "Nothing was charged for it.",
      `${letter.to} is not served by this letter: mail the notice again from the version's page when you are ready.`,
    ].join("\n\n"),
  });
}
