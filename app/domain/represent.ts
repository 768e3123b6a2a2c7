import { z } from "zod";

/** Representing a member (agent mode): what an admin sends from /admin or a member's page. */

export const ENTER_USERNAME = "Enter the username of the member to represent";

/** Start representing a member (by username from /admin, by id from a member's page), or stop. */
export const representSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("start-agent"),
    userId: z.string().uuid().optional(),
    username: z.string().trim().min(1, ENTER_USERNAME).max(32, ENTER_USERNAME).optional(),
  }),
  z.object({ intent: z.literal("stop-agent") }),
]);
