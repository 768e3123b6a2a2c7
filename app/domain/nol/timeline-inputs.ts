import { z } from "zod";
import { versionSchema } from "./entries";
import { WINDOW_DAYS } from "./timeline";

/** The checks of the timeline's inputs: a response window's days, a tracking number (decision 034). */

export const windowDaysSchema = z.coerce
  .number({ invalid_type_error: "Enter a number of days" })
  .int("Enter a whole number of days")
  .min(WINDOW_DAYS.min, `A response window is at least ${WINDOW_DAYS.min} day`)
  .max(WINDOW_DAYS.max, `A response window is at most ${WINDOW_DAYS.max} days`);

/** USPS tracking numbers: 20 to 22 digits, or two letters, nine digits and "US" (international). */
const USPS_DIGITS = /^\d{20,22}$/;
const USPS_INTERNATIONAL = /^[A-Z]{2}\d{9}US$/;

/** A tracking number as it is kept: spaces and dashes dropped, letters in capitals. */
export function normaliseTracking(value: string): string {
  return value.replace(/[\s-]+/g, "").toUpperCase();
}

export const TRACKING_MESSAGE =
  "Enter a USPS tracking number: 20 to 22 digits, or 2 letters, 9 digits and US (such as RE123456789US)";

export const trackingNumberSchema = z
  .string({ required_error: "Enter the tracking number" })
  .transform(normaliseTracking)
  .refine((value) => value.length > 0, "Enter the tracking number")
  .refine((value) => USPS_DIGITS.test(value) || USPS_INTERNATIONAL.test(value), TRACKING_MESSAGE);

/** A round named in an address (a proof of service's): 1 to 3 for notices, then true bills, up to 200. */
export const roundQuerySchema = z.coerce
  .number({ invalid_type_error: "Name a round by its number" })
  .int()
  .min(1)
  .max(200);

/** The timeline's proof-of-service notarize forms: send a round's proof, read its status, or delete it. */
export const proofNotarizeFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), version: versionSchema, round: roundQuerySchema }),
  z.object({ intent: z.enum(["refresh", "delete"]), version: versionSchema, nz_id: z.string().max(200) }),
]);
