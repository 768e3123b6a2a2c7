import { z } from "zod";

/** The forms of an account's deletion (decision 051), for the routes through ~/lib/schemas.server. */

/** At sign-in during the grace period: keep the account, or leave it to its erasure. */
export const undoChoiceSchema = z.object({ intent: z.enum(["keep", "leave"]) });

/** An admin's "Erase now on request": the member's username typed again. */
export const eraseFormSchema = z.object({ intent: z.literal("erase"), confirm: z.string().trim().max(200) });
