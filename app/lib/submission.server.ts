import { json } from "@remix-run/node";
import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { z } from "zod";
import { isDomainError, type DomainError } from "~/domain/errors";
import { NUL_REFUSED, nulFields, nulMessage } from "~/domain/requests";

/** The fields a failed form never sends back to the browser. */
export const SECRET_FIELDS = ["password", "confirm", "cardNumber", "cvc"];

async function formOf(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    return new FormData();
  }
}

/** The fields holding U+0000, named as a person reads them: a name that holds it is no name to give. */
const named = (fields: readonly string[]) => fields.map((field) => field || "a field's name");

/**
 * The form a request sent; a body that is no form reads as an empty one, which validation
 * refuses. A field holding U+0000 (which PostgreSQL cannot store) stops the action here with a
 * 400 naming it, as an action reading its fields by hand has no form to show it on; a conform
 * form read with parseSubmission shows it beside the field instead.
 */
export async function readForm(request: Request): Promise<FormData> {
  const form = await formOf(request);
  const refused = nulFields(form);
  if (refused.length > 0) throw json(nulMessage(named(refused)), { status: 400 });
  return form;
}

/** Reads the request's form and parses it with the same zod schema the browser validated with. */
export async function parseSubmission<Schema extends z.ZodTypeAny>(request: Request, schema: Schema) {
  const form = await formOf(request);
  return { form, submission: submissionOf(form, schema) };
}

/**
 * Parses an already-read form (for actions that read it before the rate limit). A field holding
 * U+0000 fails it whatever the schema takes: the error beside that field and, naming it, above
 * the form (a field the page does not show, or a name that holds it, has nowhere else to go).
 */
export function submissionOf<Schema extends z.ZodTypeAny>(form: FormData, schema: Schema) {
  const refused = nulFields(form);
  if (refused.length === 0) return parseWithZod(form, { schema });
  const refusal = z.any().superRefine((_, ctx) => {
    ctx.addIssue({ code: "custom", path: [], message: nulMessage(named(refused)) });
    for (const field of refused) {
      // A field named as a property every object has (__proto__, constructor) has no place beside it.
      if (field && !(field in Object.prototype)) ctx.addIssue({ code: "custom", path: [field], message: NUL_REFUSED });
    }
  });
  // The refusal comes first and the schema never runs; piping into it keeps the submission's type.
  return parseWithZod(form, { schema: refusal.pipe(schema) });
}

export type FormReply = { result: SubmissionResult<string[]> };

/**
 * The 4xx answer a conform form renders next to its fields, keeping what was typed but never
 * a secret; a 429 also says when to try again.
 */
export function replyWith(
  submission: Submission<unknown>,
  options: {
    formErrors?: string[];
    fieldErrors?: Record<string, string[]>;
    status?: number;
    retryAfterSeconds?: number;
  } = {},
) {
  const { status = 400, retryAfterSeconds, formErrors, fieldErrors } = options;
  return json<FormReply>(
    { result: submission.reply({ formErrors, fieldErrors, hideFields: SECRET_FIELDS }) },
    { status, headers: retryAfterSeconds ? { "Retry-After": String(retryAfterSeconds) } : {} },
  );
}

/**
 * A service's DomainError as the form's answer: its field errors by the fields, its message
 * above; with the kind's status unless `status` says otherwise.
 */
export function replyWithError(submission: Submission<unknown>, error: DomainError, status = error.status) {
  const fieldErrors = Object.fromEntries(
    Object.entries(error.fieldErrors ?? {}).filter((e): e is [string, string[]] => Array.isArray(e[1])),
  );
  const hasFieldErrors = Object.keys(fieldErrors).length > 0;
  return replyWith(submission, {
    fieldErrors,
    formErrors: hasFieldErrors ? undefined : [error.message],
    status,
    retryAfterSeconds: error.retryAfterSeconds,
  });
}

/**
 * Runs a form action's work: a DomainError it throws becomes the form's answer
 * (replyWithError), anything else stays a fault. `statusOf` may name another status for an error.
 */
export async function withFormErrors(
  submission: Submission<unknown>,
  run: () => Promise<Response>,
  statusOf?: (error: DomainError) => number | undefined,
): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return replyWithError(submission, error, statusOf?.(error) ?? error.status);
  }
}
