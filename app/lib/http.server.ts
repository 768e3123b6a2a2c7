import { json, redirect, redirectDocument } from "@remix-run/node";
import { DomainError, NOT_FOUND_MESSAGE, type DomainErrorKind } from "~/domain/errors";
import { needsDocumentLoad } from "~/domain/framing";

/**
 * The one mapping from a DomainError to an HTTP answer.
 * - JSON (the API of spec §7): `{ error, fieldErrors?, ...extra }` with the kind's status.
 * - Pages: the message as the thrown data, which the root error boundary shows.
 */
export function errorJson(error: DomainError): Response {
  const headers: HeadersInit = error.retryAfterSeconds ? { "Retry-After": String(error.retryAfterSeconds) } : {};
  return json(
    { error: error.message, ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}), ...error.extra },
    { status: error.status, headers },
  );
}

export function errorPage(error: DomainError): Response {
  return json(error.message, { status: error.status });
}

/** Runs an API handler: a DomainError becomes its JSON answer; anything else is a fault (500). */
export async function withApiErrors(run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DomainError) return errorJson(error);
    throw error;
  }
}

/** Runs a page loader or action: a DomainError is thrown as its page answer for the error boundary. */
export async function withPageErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DomainError) throw errorPage(error);
    throw error;
  }
}

/**
 * `invariantResponse(row, "No such member", { status: 404 })`-style guard for route code:
 * stops the page with the status when the condition fails.
 */
export function invariantResponse<T>(
  condition: T | null | undefined | false,
  message: string = NOT_FOUND_MESSAGE,
  init: { status?: number } = {},
): asserts condition {
  if (condition === null || condition === undefined || condition === false) {
    throw json(message, { status: init.status ?? 404 });
  }
}

/** Throws the page's 404 (spec §8 'This page could not be found'). */
export function notFoundPage(): never {
  throw json(NOT_FOUND_MESSAGE, { status: 404 });
}

/** Throws the API's answer for a kind: `throw apiError("invalid", "Invalid query", fieldErrors)`. */
export function apiError(kind: DomainErrorKind, message: string, fieldErrors?: DomainError["fieldErrors"]): Response {
  return errorJson(new DomainError(kind, message, { fieldErrors }));
}

/**
 * A redirect away from the page `request` names. When the target is served with other
 * headers (a card page, a page the learning site frames), the browser loads it as a
 * document even after a client-side submission: it would keep the policy of the page it
 * left otherwise (framing.ts).
 */
export function pageRedirect(request: Request, to: string, init?: number | ResponseInit) {
  const here = new URL(request.url);
  const there = new URL(to, here);
  const reload = there.origin === here.origin && needsDocumentLoad(here.pathname, there.pathname);
  return reload ? redirectDocument(to, init) : redirect(to, init);
}
