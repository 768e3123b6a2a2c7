import { json } from "@remix-run/node";
import type { z } from "zod";
import { DomainError, invalid, type FieldErrors } from "~/domain/errors";
import { NUL_REFUSED, nulMessage, nulPaths } from "~/domain/requests";
import { errorJson } from "./http.server";

/**
 * Reading JSON bodies for the API, one way for every call. Failures throw: a DomainError
 * (invalid, 400) that `withApiErrors` answers, or a ready Response for what is no DomainError
 * kind (413 too large, 415 not JSON by its type).
 */

/** Reads at most `limit` bytes of a body; null when it is larger. */
export async function readCappedText(request: Request, limit: number): Promise<string | null> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return null;
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A parsed body that holds U+0000 in a text or a key (PostgreSQL cannot store it) is invalid,
 * with the path of each place, as a form names its field.
 */
function refuseNul(value: unknown): void {
  const paths = nulPaths(value);
  if (paths.length === 0) return;
  throw invalid(
    nulMessage(paths.map((path) => path || "the body")),
    Object.fromEntries(paths.map((path) => [path || "body", [NUL_REFUSED]])),
  );
}

/** A body's text as JSON: text that is not JSON, or JSON holding a NUL character, is invalid. */
export function parseJsonText(text: string, notJsonMessage = "The body is not valid JSON"): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid(notJsonMessage);
  }
  refuseNul(value);
  return value;
}

/**
 * The same refusal for a raw body its reader parses itself (a webhook, whose signature is
 * checked on the raw text): text that is not JSON is left to that reader to refuse.
 */
export function refuseNulInJsonText(text: string): void {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return;
  }
  refuseNul(value);
}

/** A zod error as the API's field errors, keyed by the path of each value ("0.time"; the whole body is "body"). */
export function issuesByPath(error: z.ZodError): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "body";
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

/** The body as JSON, at most `limit` bytes: 413 when larger, invalid when it is not JSON. */
export async function readJsonText(request: Request, limit: number, notJsonMessage?: string): Promise<unknown> {
  const text = await readCappedText(request, limit);
  if (text === null) throw json({ error: `The body exceeds ${limit} bytes` }, { status: 413 });
  return parseJsonText(text, notJsonMessage);
}

/** spec §8: a body (or query) with a key the call does not take. */
export const UNKNOWN_KEY_MESSAGE = "Unknown key";

/**
 * Parses a value with a schema: the data, or invalid with each refused value's path; 'Unknown
 * key' when the value has a key the schema does not take.
 */
export function parseWith<T extends z.ZodTypeAny>(schema: T, value: unknown, message = "Invalid body"): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const unknownKey = parsed.error.issues.some((issue) => issue.code === "unrecognized_keys");
    throw invalid(unknownKey ? UNKNOWN_KEY_MESSAGE : message, issuesByPath(parsed.error));
  }
  return parsed.data;
}

export const JSON_BODY_LIMIT = 1024 * 1024;

/**
 * A JSON API body against its schema. Anything else stops the call with its JSON answer,
 * thrown as a Response like `requireApiMember`'s 401, so it works inside or outside
 * `withApiErrors`: 415 when it is not sent as JSON, 413 past 1 MB, 400 (with field errors)
 * when it does not parse or fit.
 */
export async function readJson<T extends z.ZodTypeAny>(request: Request, schema: T): Promise<z.infer<T>> {
  if (!(request.headers.get("content-type") ?? "").includes("application/json")) {
    throw json({ error: "Send a JSON body (Content-Type: application/json)" }, { status: 415 });
  }
  try {
    return parseWith(schema, await readJsonText(request, JSON_BODY_LIMIT));
  } catch (error) {
    throw error instanceof DomainError ? errorJson(error) : error;
  }
}

/** The answer to a method an API call does not take (its loader, for GET). */
export function postOnly(): Response {
  return json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}

/** The action of an API call that only reads: a write gets the API's `{ error }`, not Remix's own 405. */
export function readOnly(): Response {
  return json({ error: "Use GET" }, { status: 405, headers: { Allow: "GET, HEAD" } });
}
