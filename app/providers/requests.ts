/**
 * A request that makes something of a PDF at an outside service (a letter to mail, a document
 * to notarize): the document, the caller's key, so that a retried request makes one object, and
 * the pairs the provider keeps with the object and returns in its events.
 */
export type DocumentRequest = {
  pdf: Uint8Array;
  idempotencyKey: string;
  metadata: Record<string, string>;
};
