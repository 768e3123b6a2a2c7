import type { z } from "zod";
import { isDomainError } from "~/domain/errors";
import { replyWithError, submissionOf } from "./submission.server";

/**
 * Counts a rate limit before the form is read, so that a refused request costs no parsing.
 * Answers the form's refusal (429 with `Retry-After`) when the limit is reached, else null;
 * the refusal carries no values, as none were read.
 */
export async function refusedBeforeReading(schema: z.ZodTypeAny, count: () => Promise<void>): Promise<Response | null> {
  try {
    await count();
    return null;
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return replyWithError(submissionOf(new FormData(), schema), error);
  }
}
