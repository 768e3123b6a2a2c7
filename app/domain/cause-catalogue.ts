/** What the cause catalogue shows: the spec's three statuses, and the forms every cause uses. */

export const CAUSE_STATUSES = ["live", "testing", "beta"] as const;
export const NOT_OFFERED = "none";

/**
 * The NoL forms every cause uses (spec §3 form ids), by the names of their pages: an admin
 * knows them as the notice creator, the billing profile and the true bills, not by number.
 */
export const CAUSE_FORMS = [
  { id: 187, name: "the notice creator" },
  { id: 189, name: "the billing profile" },
  { id: 194, name: "the true bills" },
] as const;

/** "the notice creator, the billing profile and the true bills". */
export function causeFormsWords(): string {
  const names = CAUSE_FORMS.map((f) => f.name);
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** A cause's status in a country, in the spec's words (§ cause status): available (live), testing, started (beta). */
export const CAUSE_STATUS_WORDS: Record<string, string> = {
  live: "Available (live)",
  testing: "Testing",
  beta: "Started (beta)",
};

/** A cause status in words ("Available (live)"); an unknown code as it is. */
export function causeStatusWords(status: string): string {
  return CAUSE_STATUS_WORDS[status] ?? status;
}
