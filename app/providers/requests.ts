/**
 * What a create request to an outside service carries besides its content: the caller's key,
 * so that a retried request makes one object, and the pairs the provider keeps with the object
 * and returns in its events.
 */
export type KeyedRequest = {
  idempotencyKey: string;
  metadata: Record<string, string>;
};
