import { z } from "zod";
import { deliveryDay, mailedDay } from "./step-form";
import { trackingNumberSchema } from "./timeline-inputs";

/**
 * What a member records of one respondent's service by hand: the notice mailed to them again
 * (its day and its envelope's number), their delivery or the envelope's return (its day), or
 * leaving them out of the round with the reason the proof of service states.
 */

export const SERVICE_INTENTS = ["mailed", "delivered", "returned", "left_out"] as const;
export type ServiceIntent = (typeof SERVICE_INTENTS)[number];

/** Which respondent of which round: from the page's address. */
export const serviceAddressSchema = z.object({
  round: z.coerce.number().int().min(1).max(200),
  slot: z.coerce.number().int().min(1).max(16),
});

const reason = z
  .string({ required_error: "Say why they are left out of this round" })
  .trim()
  .min(3, "Say why they are left out of this round")
  .max(300, "Use at most 300 characters");

/** The form of one intent, with the days it may take: mailing from the notice's day, delivery and return from the mailing's. */
export function serviceFormSchema(context: { today: string; noticeOn: string | null; mailedOn: string | null }) {
  return z.discriminatedUnion("intent", [
    z.object({ intent: z.literal("mailed"), day: mailedDay(context), tracking: trackingNumberSchema }),
    z.object({ intent: z.literal("delivered"), day: deliveryDay(context) }),
    z.object({ intent: z.literal("returned"), day: deliveryDay(context, "return") }),
    z.object({ intent: z.literal("left_out"), reason }),
  ]);
}
export type ServiceForm = z.output<ReturnType<typeof serviceFormSchema>>;
