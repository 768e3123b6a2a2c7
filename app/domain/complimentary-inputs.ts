import { z } from "zod";
import { COMPLIMENTARY_NOTE_MAX } from "./complimentary";

/** An admin's grant of a complimentary membership from a member's page (decision 037). */
export const grantComplimentarySchema = z.object({
  intent: z.literal("grant-complimentary"),
  planId: z.string({ required_error: "Choose a plan" }).trim().min(1, "Choose a plan").max(64),
  endsOn: z
    .string()
    .trim()
    .optional()
    .transform((value) => value || undefined)
    .pipe(
      z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, "Enter the end date as YYYY-MM-DD")
        .refine((v) => !Number.isNaN(Date.parse(v)) && new Date(v).toISOString().startsWith(v), "Enter a real date")
        .optional(),
    ),
  note: z
    .string()
    .trim()
    .max(COMPLIMENTARY_NOTE_MAX, `Use at most ${COMPLIMENTARY_NOTE_MAX} characters`)
    .optional()
    .transform((value) => value || null),
});
export type GrantComplimentaryInput = z.infer<typeof grantComplimentarySchema>;
