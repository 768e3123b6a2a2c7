/** What the cause catalogue shows: the spec's three statuses, and the forms every cause uses. */

export const CAUSE_STATUSES = ["live", "testing", "beta"] as const;
export const NOT_OFFERED = "none";

/** The NoL forms every cause uses (spec §3 form ids). */
export const CAUSE_FORMS = [
  { id: 187, name: "NoL creator 2" },
  { id: 189, name: "Profile billing" },
  { id: 194, name: "Billing" },
] as const;
