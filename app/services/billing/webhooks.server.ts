import type { AppServices } from "~/context";
import { DomainError, invalid, notFound } from "~/domain/errors";
import { isProviderError } from "~/providers/errors";
import type { UnreadableWebhookEvent } from "~/providers/payments/types";
import { countedDelivery } from "../provider-events.server";
import { keepUnreadableEvent, receivePaymentEvent } from "./events.server";

/**
 * A Stripe webhook delivery: checked, stored by its event id and applied in one transaction.
 * An unknown event type is stored and acknowledged; so is a signed delivery we cannot read,
 * kept for admins, since Stripe would only resend the same bytes for three days. A failure
 * while applying is thrown (500), so Stripe delivers the event again.
 */
export async function receiveStripeWebhook(
  services: AppServices,
  raw: string | null,
  signature: string | null,
): Promise<{ received: true; duplicate: boolean; unreadable?: true }> {
  const provider = services.providers.payments;
  if (provider.name !== "stripe") throw notFound("Not found");
  return countedDelivery(services, "stripe", async () => {
    if (raw === null) throw new DomainError("invalid", "The event is too large");
    let event;
    try {
      event = provider.readWebhook(raw, signature);
    } catch (error) {
      if (isProviderError(error, "invalid_signature"))
        throw invalid("The Stripe-Signature header does not match this event");
      if (isProviderError(error, "unreadable_event")) {
        const delivery = (error as Partial<UnreadableWebhookEvent>).event ?? { id: null, type: null, payload: null };
        const kept = await keepUnreadableEvent(services, "stripe", raw, { ...delivery, message: error.message });
        const result = { received: true as const, duplicate: kept.duplicate, unreadable: true as const };
        return { result, outcome: kept.duplicate ? "duplicate" : "unreadable" };
      }
      throw error;
    }
    const { outcome } = await receivePaymentEvent(services, event);
    return { result: { received: true as const, duplicate: outcome === "duplicate" }, outcome };
  });
}
