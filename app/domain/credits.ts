import { z } from "zod";
import { GRANT_MAX } from "./credit-text";
import { safeRedirectPath } from "./guard";
import { wholeNumber } from "./whole-numbers";

/**
 * Notarize credits: where notarizing costs money, each "Notarize online" spends one. A member
 * buys them (the "Notarize credit" plan) or an admin grants them; a spend is given back when
 * the notary refuses the document or the member deletes it before the notary has started.
 */

export * from "./credit-text";

/**
 * A notarization's credit is given back on deletion only while the notary has not started on
 * it: a draft, or sent and not yet opened by the signer.
 */
export function refundableOnDelete(status: string | null): boolean {
  return status === "draft" || status === "sent";
}

/** An admin's grant on a member's page: how many, and why (kept in the history and the audit log). */
export const grantCreditsSchema = z.object({
  count: wholeNumber({ min: 1, max: GRANT_MAX, coerce: true, message: `Enter a whole number from 1 to ${GRANT_MAX}` }),
  note: z
    .string({ required_error: "Say why the credits are granted" })
    .trim()
    .min(1, "Say why the credits are granted")
    .max(200, "Use at most 200 characters"),
});

/**
 * Where a credit bought from a notarize page goes back to once paid: a notarize page of this
 * site, with its query (the version); anything else is dropped.
 */
export function creditReturnPath(value: unknown): string | null {
  const path = safeRedirectPath(value, "");
  return path.length <= 500 && /^\/nol\/[^?#]*\/notarize(\?[^#]*)?$/.test(path) ? path : null;
}
