import { z } from "zod";
import { isHttpsUrl } from "./links";

/**
 * The community's links (spec §3 "Cause catalogue", §7 GET /api/config/causes): the invite
 * link (mnInviteLink) and one community space per cause (mightyLinks, by cause code). Admins
 * set them on /admin/settings; an empty field leaves the link out.
 */

export const LINK_MAX_LENGTH = 500;

export const LINK_TOO_LONG = `Use at most ${LINK_MAX_LENGTH} characters`;
export const LINK_NOT_HTTPS = "Enter a full web address starting with https://";

const link = z
  .string()
  .trim()
  .max(LINK_MAX_LENGTH, LINK_TOO_LONG)
  .refine((value) => value.length > LINK_MAX_LENGTH || isHttpsUrl(value), LINK_NOT_HTTPS);

/** A field left empty (or holding only spaces) gives no link. */
const optionalLink = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  link.optional(),
);

export const communityLinksSchema = z.object({
  // The form says what it saves: a post without it (no fields at all) clears nothing.
  intent: z.literal("save-links", { errorMap: () => ({ message: "Send the links from the settings page" }) }),
  mnInviteLink: optionalLink,
  // One field per cause of the catalogue: mightyLinks.TS=https://…
  mightyLinks: z.record(z.string().regex(/^[A-Z]{2,6}$/), optionalLink).default({}),
});
export type CommunityLinksForm = z.infer<typeof communityLinksSchema>;
