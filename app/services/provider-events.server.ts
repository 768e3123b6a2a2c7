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
