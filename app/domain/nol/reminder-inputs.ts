import { z } from "zod";
import { REMINDER_KINDS } from "./reminders";

/**
 * The inputs about reminders: the link that stops a kind, and the profile's choices. Apart from
 * reminders.ts so that no page that shows reminders bundles zod.
 */

/** /reminders/unsubscribe?member=…&kind=…&token=…, as the e-mail's link (or the mail program) sends it. */
export const unsubscribeLinkSchema = z.object({
  member: z.string().uuid(),
  kind: z.enum(REMINDER_KINDS),
  token: z.string().regex(/^[\w-]{43}$/),
});

/** The profile's reminders form: the kinds ticked (none ticked turns every kind off). */
export const reminderChoicesSchema = z.object({
  intent: z.literal("reminders"),
  kinds: z.preprocess(
    (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]),
    z.array(z.enum(REMINDER_KINDS, { message: "Choose among the reminders listed" })),
  ),
});
