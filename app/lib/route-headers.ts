import type { HeadersFunction } from "@remix-run/node";

/**
 * A route's `headers`: a refused form post keeps the action's `Retry-After` on the page the
 * browser gets, with or without JavaScript (Remix drops an action's headers from a document
 * answer unless the route passes them on).
 */
export const retryAfterHeaders: HeadersFunction = ({ actionHeaders, loaderHeaders }) => {
  const headers = new Headers();
  const retryAfter = actionHeaders.get("Retry-After") ?? loaderHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
