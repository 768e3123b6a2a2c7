import type { AppServices } from "~/context";
import { DomainError } from "~/domain/errors";
import type { WebhookOutcome } from "./metrics.server";

/** A built-in provider's kept events: the ones not yet handed to the app, and marking each handed. */
export type EventSource<E extends { id: string }> = {
  undeliveredEvents(limit?: number): Promise<E[]>;
  markDelivered(eventId: string): Promise<void>;
};

const BATCH = 100;

/**
 * Hands every undelivered event of a built-in provider (the payments and notary sandboxes) to
 * its handler, oldest first, in batches; each is marked delivered once handled, so a failure
 * leaves it and the rest for the next run. Returns how many were delivered.
 */
export async function deliverInBatches<E extends { id: string }>(
  source: EventSource<E> | null,
  handle: (event: E) => Promise<unknown>,
): Promise<number> {
  if (!source) return 0;
  let delivered = 0;
  for (;;) {
    const events = await source.undeliveredEvents(BATCH);
    for (const event of events) {
      await handle(event);
      await source.markDelivered(event.id);
      delivered += 1;
    }
    if (events.length < BATCH) return delivered;
  }
}

/**
 * Receives one webhook delivery and counts what became of it: what `receive` says it did, a
 * refusal (a bad signature or body, answered 400) as refused, any other failure (answered 500,
 * so the provider delivers it again) as failed.
 */
export async function countedDelivery<T>(
  services: AppServices,
  provider: string,
  receive: () => Promise<{ result: T; outcome: WebhookOutcome }>,
): Promise<T> {
  try {
    const { result, outcome } = await receive();
    services.metrics.webhookReceived(provider, outcome);
    return result;
  } catch (error) {
    const refused = error instanceof DomainError && error.kind === "invalid";
    services.metrics.webhookReceived(provider, refused ? "refused" : "failed");
    throw error;
  }
}
