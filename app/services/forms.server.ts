import { json } from "@remix-run/node";
import type { FieldErrors } from "~/domain/errors";

export { readForm } from "~/lib/submission.server";

/** The values a form sent, minus any secret, to refill the form after an error. */
export function keptValues(form: FormData, omit: string[] = ["password", "confirm", "cardNumber", "cvc"]) {
  const values: Record<string, string> = {};
  for (const [key, value] of form) {
    if (typeof value === "string" && !omit.includes(key) && key !== "website") values[key] = value.slice(0, 500);
  }
  return values;
}

export type FormFailure = { ok: false; fieldErrors: FieldErrors; formError?: string; values: Record<string, string> };

/**
 * A 4xx answer that the form renders next to its fields, keeping what was typed; a 429 also
 * says when to try again.
 */
export function formFailure(
  form: FormData,
  errors: FieldErrors,
  formError?: string,
  status = 400,
  retryAfterSeconds?: number,
) {
  return json<FormFailure>(
    { ok: false, fieldErrors: errors, formError, values: keptValues(form) },
    { status, headers: retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : {} },
  );
}
