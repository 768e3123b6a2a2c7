import { z } from "zod";
import { US_STATES } from "./address";

/**
 * The mailing settings' form on /admin/settings: the price per envelope in dollars, the
 * community's return address (all its fields empty: each member's own), and the days without
 * news before a letter is flagged as lost.
 */

const STATES: ReadonlySet<string> = new Set(US_STATES);
const blank = (value: string | undefined) => !value || value.trim() === "";

export const mailingSettingsFormSchema = z
  .object({
    intent: z.literal("mailing"),
    perEnvelope: z
      .string({ required_error: "Enter the price per envelope" })
      .trim()
      .regex(/^\d{1,4}(\.\d{1,2})?$/, "Enter a price in dollars, such as 9.50 (0 when the community pays)"),
    returnLine1: z.string().trim().max(64, "Use at most 64 characters").optional(),
    returnLine2: z.string().trim().max(64, "Use at most 64 characters").optional(),
    returnCity: z.string().trim().max(200, "Use at most 200 characters").optional(),
    returnState: z.string().trim().toUpperCase().optional(),
    returnZip: z.string().trim().optional(),
    lostAfterDays: z.coerce
      .number({ invalid_type_error: "Enter a whole number of days from 2 to 60" })
      .int("Enter a whole number of days from 2 to 60")
      .min(2, "Enter a whole number of days from 2 to 60")
      .max(60, "Enter a whole number of days from 2 to 60"),
  })
  .superRefine((form, ctx) => {
    const given = [form.returnLine1, form.returnLine2, form.returnCity, form.returnState, form.returnZip];
    if (given.every(blank)) return;
    const need = (path: string, ok: boolean, message: string) => {
      if (!ok) ctx.addIssue({ code: "custom", path: [path], message });
    };
    need("returnLine1", !blank(form.returnLine1), "Enter the street address, or empty every field of the address");
    need("returnCity", !blank(form.returnCity), "Enter the city");
    need("returnState", STATES.has(form.returnState ?? ""), "Enter the state as its two letters, such as IL");
    need("returnZip", /^\d{5}(?:-?\d{4})?$/.test(form.returnZip ?? ""), "Enter a ZIP code of 5 or 9 digits");
  })
  .transform((form) => ({
    prices: { perEnvelopeCents: Math.round(Number(form.perEnvelope) * 100), currency: "usd" as const },
    returnAddress: blank(form.returnLine1)
      ? null
      : {
          line1: form.returnLine1!,
          line2: blank(form.returnLine2) ? undefined : form.returnLine2,
          city: form.returnCity!,
          state: form.returnState!,
          zip:
            form.returnZip!.length === 9
              ? `${form.returnZip!.slice(0, 5)}-${form.returnZip!.slice(5)}`
              : form.returnZip!,
          country: "US" as const,
        },
    lostAfterDays: form.lostAfterDays,
  }));
