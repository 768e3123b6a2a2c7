import { z } from "zod";

const ENTER_USERNAME = "Enter a username";

/** A username as the editor form takes it: the shape of a username, one message for all that is not. */
const editorUsername = z
  .string({ required_error: ENTER_USERNAME })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9_-]{3,32}$/, ENTER_USERNAME);

/** The editor forms of /nol/editor: add an editor by username, or remove one. */
export const editorFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), username: editorUsername }),
  z.object({ intent: z.literal("remove"), username: editorUsername }),
]);
