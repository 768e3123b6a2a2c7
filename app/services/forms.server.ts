import { json } from "@remix-run/node";
import type { z } from "zod";
import { fieldErrors, type FieldErrors } from "~/domain/account";
import { hasNul } from "~/domain/requests";

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

/** The form a request sent; a body that is no form reads as an empty one, which validation refuses. */
export async function readForm(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return new FormData();
  }
  for (const [, value] of form) {
    if (typeof value === "string" && hasNul(value))
      throw json("The form contains a character that cannot be used", { status: 400 });
  }
  return form;
}

export function parseForm<T extends z.ZodTypeAny>(schema: T, form: FormData) {
  const result = schema.safeParse(Object.fromEntries(form));
  return result.success
    ? ({ ok: true, data: result.data as z.infer<T> } as const)
    : ({ ok: false, fieldErrors: fieldErrors(result.error) } as const);
}
