import { z } from "zod";

/** The filters of the admins' list of letters (/admin/mailings), by their value in the address. */
export const MAILING_FILTERS = {
  all: "All letters",
  attention: "Needing attention",
  failed: "Refused by the mail house",
  returned: "Returned to sender",
  lost: "Lost (no news)",
  unconfirmed: "Not confirmed by the mail house",
  "on-the-way": "On their way",
  delivered: "Delivered",
  cancelled: "Cancelled",
} as const;
export type MailingFilter = keyof typeof MAILING_FILTERS;

export const mailingsQuerySchema = z.object({
  state: z
    .enum(Object.keys(MAILING_FILTERS) as [MailingFilter, ...MailingFilter[]])
    .catch("all")
    .default("all"),
  // A username has no U+0000 (which the database cannot take): such a search is no search.
  member: z
    .string()
    .trim()
    .max(100)
    .refine((value) => !value.includes("\0"))
    .catch("")
    .default(""),
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
});
export type MailingsQuery = z.output<typeof mailingsQuerySchema>;
