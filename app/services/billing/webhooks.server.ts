import type { AppServices } from "~/context";
import { DomainError, invalid, notFound } from "~/domain/errors";
import { refuseNulInJsonText } from "~/lib/json-body.server";
import { InvalidWebhookSignature } from "~/providers/payments/types";
import { receivePaymentEvent } from "./events.server";

/**
 * A Stripe webhook delivery: checked, stored by its event id and applied in one transaction.
 * An unknown event type is stored and acknowledged; a failure while applying is thrown (500),
 * so Stripe delivers the event again.
 */
export async function receiveStripeWebhook(
  services: AppServices,
  raw: string | null,
  signature: string | null,
): Promise<{ received: true; duplicate: boolean }> {
  const provider = services.providers.payments;
  if (provider.name !== "stripe") throw notFound("Not found");
  if (raw === null) throw new DomainError("invalid", "The event is too large");
  // Refused before it is stored: its event would be kept whole, and a retry would fail the same.
  refuseNulInJsonText(raw);
  let event;
  try {
    event = provider.readWebhook(raw, signature);
  } catch (error) {
    if (error instanceof InvalidWebhookSignature)
      throw invalid("The Stripe-Signature header does not match this event");
    throw error;
  }
  const { outcome } = await receivePaymentEvent(services, event);
  return { received: true, duplicate: outcome === "duplicate" };
}
