import { z } from "zod";
import { emailSchema, honeypotSchema, linkTokenSchema, requiredText } from "./account";
import { SUPPORT_SOURCE } from "./forms";
import { isMailAddress } from "./mail-address";

export { SUPPORT_SOURCE };

/** The forms a visitor reaches the community with: Contact Support (form 255) and the newsletter. */

export const supportSchema = z.object({
  email: requiredText("Enter your e-mail address", 254).refine(isMailAddress, "Enter a valid e-mail address"),
  name: z.string().trim().max(120, "Use at most 120 characters").optional(),
  subject: requiredText("Say what it is about", 200, "Use at most 200 characters"),
  message: requiredText("Write your message", 5_000, "Use at most 5,000 characters"),
  source: z.literal(SUPPORT_SOURCE).catch(SUPPORT_SOURCE),
  website: honeypotSchema,
});
export type SupportInput = z.infer<typeof supportSchema>;

/** The newsletter page's three forms: subscribe, and the confirm and stop buttons of the e-mailed links. */
export const newsletterSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("subscribe"), email: emailSchema, website: honeypotSchema }),
  z.object({ intent: z.literal("confirm"), token: linkTokenSchema }),
  z.object({ intent: z.literal("unsubscribe"), token: linkTokenSchema }),
]);
