import { json } from "@remix-run/node";
import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { z } from "zod";
import { isDomainError, type DomainError } from "~/domain/errors";
import { hasNul } from "~/domain/requests";

/** The fields a failed form never sends back to the browser. */
export const SECRET_FIELDS = ["password", "confirm", "cardNumber", "cvc"];

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

/** Reads the request's form and parses it with the same zod schema the browser validated with. */
export async function parseSubmission<Schema extends z.ZodTypeAny>(request: Request, schema: Schema) {
  const form = await readForm(request);
  return { form, submission: parseWithZod(form, { schema }) };
}

/** Parses an already-read form (for actions that read it before the rate limit). */
export function submissionOf<Schema extends z.ZodTypeAny>(form: FormData, schema: Schema) {
  return parseWithZod(form, { schema });
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
