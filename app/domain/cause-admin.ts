import { z } from "zod";
import { CAUSE_FORMS, CAUSE_STATUSES, NOT_OFFERED } from "./cause-catalogue";
import { WINDOW_KINDS, type ResponseWindows } from "./nol/timeline";
import { windowDaysSchema } from "./nol/timeline-inputs";

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

/** A window left empty takes the configured default. */
const windowField = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(windowDaysSchema.optional());

/** The respondents' windows a cause sets, by round kind (window.notice=14 …); the others are the defaults. */
const windowsSchema = z
  .object(
    Object.fromEntries(WINDOW_KINDS.map((kind) => [kind, windowField])) as Record<
      (typeof WINDOW_KINDS)[number],
      typeof windowField
    >,
  )
  .default({})
  .transform((windows) => {
    const set: Partial<ResponseWindows> = {};
    for (const kind of WINDOW_KINDS) if (windows[kind] !== undefined) set[kind] = windows[kind];
    return set;
  });

export const causeFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("save-cause"),
    code: causeCode,
    label: text("label"),
    name: text("name"),
    allowNotarizeOnline: z.literal("on").optional(),
    window: windowsSchema,
    // One status per country: status.US=live …; "none" leaves the cause out of that country.
    status: z.record(z.string().regex(/^[A-Z]{2}$/), z.enum([...CAUSE_STATUSES, NOT_OFFERED])).default({}),
  }),
  z.object({ intent: z.literal("add-cause"), code: causeCode, label: text("label"), name: text("name") }),
]);
export type CauseForm = z.infer<typeof causeFormSchema>;
