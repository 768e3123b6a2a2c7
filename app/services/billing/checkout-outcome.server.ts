import { and, eq, isNull, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { MAILING_PAID_MESSAGE } from "~/domain/billing";
import { billingCustomers, checkouts, payments } from "~/db/schema";
import type { IntentStatus } from "~/providers/payments/types";
import { claimCredits } from "./credits.server";
import { callProvider, type CheckoutRow } from "./checkout.server";
import { deliverSandboxEvents } from "./sandbox.server";

/** What became of a checkout, and a visitor's payments claimed once they sign up. */

/** The intent behind a checkout's client secret (a subscription's first invoice, or the payment). */
export function intentRefOf(checkout: CheckoutRow): string | null {
  return checkout.clientSecret?.split("_secret_")[0] ?? null;
}

export type CheckoutOutcome = {
  status: "succeeded" | "processing" | "requires_action" | "failed" | "open";
  message: string;
};

/**
 * What happened to a checkout, from the provider's own record of its intent (never from the
 * return address's query), after handing over any events it has for us.
 */
export async function checkoutOutcome(services: AppServices, checkout: CheckoutRow): Promise<CheckoutOutcome> {
  await deliverSandboxEvents(services);
  const [fresh] = await services.db.select().from(checkouts).where(eq(checkouts.id, checkout.id));
  const current = fresh ?? checkout;
  if (current.status === "succeeded") return { status: "succeeded", message: successMessage(current) };
  const intentRef = intentRefOf(current);
  let status: IntentStatus | null = null;
  let failure: string | null = current.failureMessage;
  if (intentRef) {
    const intent = await callProvider(() => services.providers.payments.readIntent(intentRef));
    status = intent.status;
    failure = intent.failureMessage ?? failure;
  }
  if (status === "succeeded" || status === "processing" || current.status === "processing") {
    return { status: "processing", message: processingMessage(current) };
  }
  if (status === "requires_action") {
    return { status: "requires_action", message: "Your bank asks you to confirm this payment." };
  }
  if (current.status === "failed" || failure) {
    return { status: "failed", message: failure ?? "The payment did not go through. Nothing was charged." };
  }
  return { status: "open", message: "This payment is not finished yet." };
}

function processingMessage(checkout: CheckoutRow): string {
  if (checkout.kind === "card")
    return "Your card is saved. We are making it the card on file: this page updates itself.";
  if (checkout.kind === "subscription") {
    return "Your payment went through. We are finishing your membership: this page updates itself.";
  }
  return "Your payment went through. We are recording it: this page updates itself.";
}

function successMessage(checkout: CheckoutRow): string {
  if (checkout.kind === "subscription") return "Thank you: your membership is active.";
  if (checkout.kind === "card") return "Your card was updated.";
  if (checkout.kind === "donation") return "Thank you for your donation: a receipt is on its way by e-mail.";
  if (checkout.kind === "mailing") return MAILING_PAID_MESSAGE;
  return "Thank you: your payment went through and a receipt is on its way by e-mail.";
}

/** A visitor's payments, claimed by the member who signs up with (and confirms) the same e-mail. */
export async function claimPayments(services: AppServices, userId: string, email: string): Promise<number> {
  const matches = (column: typeof payments.email | typeof checkouts.email) =>
    sql`lower(${column}) = ${email.toLowerCase()}`;
  const claimed = await services.db
    .update(payments)
    .set({ userId })
    .where(and(isNull(payments.userId), matches(payments.email)))
    .returning({ id: payments.id });
  await claimCredits(
    services.db,
    userId,
    claimed.map((payment) => payment.id),
  );
  await services.db
    .update(checkouts)
    .set({ userId })
    .where(and(isNull(checkouts.userId), matches(checkouts.email)));
  await services.db
    .update(billingCustomers)
    .set({ userId })
    .where(and(isNull(billingCustomers.userId), sql`lower(${billingCustomers.email}) = ${email.toLowerCase()}`));
  return claimed.length;
}
