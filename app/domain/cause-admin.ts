import { z } from "zod";
import { CAUSE_FORMS, CAUSE_STATUSES, NOT_OFFERED } from "./cause-catalogue";

export { CAUSE_FORMS, CAUSE_STATUSES, NOT_OFFERED };

/** The admins' cause catalogue (/causes): a cause's names, its statuses by country, and the features new versions start with. */

const causeCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2,6}$/, "A cause code is 2 to 6 letters");
const text = (what: string) =>
  z
    .string({ required_error: `Enter the ${what}` })
    .trim()
    .min(1, `Enter the ${what}`)
    .max(80, "Use at most 80 characters");

export const causeFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("save-cause"),
    code: causeCode,
    label: text("label"),
    name: text("name"),
    allowNotarizeOnline: z.literal("on").optional(),
    // One status per country: status.US=live …; "none" leaves the cause out of that country.
    status: z.record(z.string().regex(/^[A-Z]{2}$/), z.enum([...CAUSE_STATUSES, NOT_OFFERED])).default({}),
  }),
  z.object({ intent: z.literal("add-cause"), code: causeCode, label: text("label"), name: text("name") }),
]);
export type CauseForm = z.infer<typeof causeFormSchema>;
