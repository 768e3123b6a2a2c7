/**
 * The named placeholders of a document template: `{{claimant.name}}`, `{{respondents}}` …
 * A template names only these; each is filled with the round's data, or a blank line to
 * write on by hand when the entry does not hold it yet (docs/decisions/020).
 */

/** A round's notice or true bill, and the proof that a round was served on its respondents. */
export const DOCUMENT_KINDS = ["notice", "true-bill", "proof-of-service"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

const ALL: readonly DocumentKind[] = DOCUMENT_KINDS;
const BOTH: readonly DocumentKind[] = ["notice", "true-bill"];
const BILLS: readonly DocumentKind[] = ["true-bill"];
const SERVICE: readonly DocumentKind[] = ["proof-of-service"];

/** A kind as a message names it: "true bills", "proofs of service". */
const KIND_PLURALS: Record<DocumentKind, string> = {
  notice: "notices",
  "true-bill": "true bills",
  "proof-of-service": "proofs of service",
};

export const PLACEHOLDERS = [
  { name: "title", kinds: ALL, description: "Notice of Liability, Notice of Fault, Default, or First True Bill …" },
  { name: "round", kinds: ALL, description: "The round: 1 to 3 for notices, 4 for the First True Bill …" },
  { name: "round_label", kinds: ALL, description: "Round 2, or Second True Bill" },
  { name: "prior_rounds", kinds: BOTH, description: "The rounds before this one: None, Round 1, Rounds 1 to 3" },
  { name: "claimant.name", kinds: ALL, description: "The claimant's name" },
  {
    name: "claimant.address",
    kinds: ALL,
    description: "The claimant's mailing address, in lines: each letter's return address",
  },
  {
    name: "respondent.name",
    kinds: BOTH,
    description: "The respondent a letter goes to: a template that names it makes one letter per respondent",
  },
  { name: "respondent.type", kinds: BOTH, description: "That respondent's type, such as Official" },
  { name: "respondent.address", kinds: BOTH, description: "That respondent's mailing address, in lines" },
  { name: "cause.name", kinds: ALL, description: "The cause, such as Traffic Stop" },
  { name: "cause.code", kinds: ALL, description: "The cause's code, such as TS" },
  { name: "country", kinds: ALL, description: "The claim's country code, such as US" },
  { name: "nol_version", kinds: ALL, description: "The name the member gave this version" },
  { name: "exhibit", kinds: ALL, description: "The claim's reference, the same on all its documents" },
  { name: "notice_date", kinds: BOTH, description: "The day this round was submitted" },
  {
    name: "respondents",
    kinds: ALL,
    description: "The respondents, one a line with slot and type (a bill's: those it bills)",
  },
  { name: "respondent_count", kinds: ALL, description: "How many respondents are listed" },
  { name: "daily_amount", kinds: BOTH, description: "The daily amount" },
  { name: "mailing_date", kinds: ALL, description: "The day this round was mailed" },
  { name: "tracking_number", kinds: ALL, description: "The mailing's tracking number" },
  { name: "delivered", kinds: ALL, description: "Whether its proof of delivery arrived: Yes or Not yet" },
  { name: "true_bill_number", kinds: BILLS, description: "1 for the First True Bill, 2 for the second …" },
  { name: "preparation_date", kinds: BILLS, description: "The day the bill was prepared" },
  { name: "first_preparation_date", kinds: BILLS, description: "The day the First True Bill was prepared" },
  { name: "administrative_judgment", kinds: BILLS, description: "The bill's administrative judgment" },
  {
    name: "first_administrative_judgment",
    kinds: BILLS,
    description: "The First True Bill's administrative judgment",
  },
  { name: "escalation_fee", kinds: BILLS, description: "20% of the prior bill's administrative judgment" },
  { name: "true_bill_total", kinds: BILLS, description: "The bill's total: its judgment and escalation fee" },
  { name: "first_true_bill_total", kinds: BILLS, description: "The First True Bill's total" },
  {
    name: "service_list",
    kinds: SERVICE,
    description: "Each respondent served: name, address, mailing date, tracking number and delivery",
  },
  { name: "delivery_date", kinds: SERVICE, description: "The day the round was delivered" },
] as const satisfies readonly { name: string; kinds: readonly DocumentKind[]; description: string }[];

export type PlaceholderName = (typeof PLACEHOLDERS)[number]["name"];
export type DocumentValues = Record<PlaceholderName, string | null>;

/** What a placeholder the entry does not fill yet prints: a line to write on. */
export const BLANK = "__________";

const byName = new Map<string, (typeof PLACEHOLDERS)[number]>(PLACEHOLDERS.map((p) => [p.name, p]));

/** The placeholders a template of this kind may name. */
export function placeholdersFor(kind: DocumentKind) {
  return PLACEHOLDERS.filter((p) => (p.kinds as readonly DocumentKind[]).includes(kind));
}

// `{{ name }}`: the name without braces, spaces around it allowed.
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The names a template's text uses, in order of first use. */
export function placeholdersIn(body: string): string[] {
  return [...new Set([...body.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

const quote = (names: string[]) => names.map((n) => `{{${n}}}`).join(", ");

/**
 * What is wrong with a template's text for its kind, as messages for its field: names that
 * are no placeholder, placeholders of true bills in a notice, and a `{{` never closed.
 */
export function templateProblems(body: string, kind: DocumentKind): string[] {
  const problems: string[] = [];
  const names = placeholdersIn(body);
  const unknown = names.filter((n) => !byName.has(n));
  if (unknown.length > 0) {
    problems.push(
      `${unknown.length === 1 ? "Unknown placeholder" : "Unknown placeholders"} ${quote(unknown)}: use the names listed with the text.`,
    );
  }
  const elsewhere = names.filter((n) => {
    const known = byName.get(n);
    return known && !(known.kinds as readonly DocumentKind[]).includes(kind);
  });
  if (elsewhere.length > 0) {
    const kinds = [...new Set(elsewhere.flatMap((n) => byName.get(n)!.kinds as readonly DocumentKind[]))];
    const where = kinds.map((k) => KIND_PLURALS[k]).join(" and ");
    problems.push(`${quote(elsewhere)} can be used in ${where} only.`);
  }
  const unclosed = body.replace(PLACEHOLDER, "").indexOf("{{");
  if (unclosed >= 0) {
    const start = body
      .replace(PLACEHOLDER, "")
      .slice(unclosed, unclosed + 24)
      .split("\n")[0];
    problems.push(`Close the placeholder that starts with "${start}" with }}.`);
  }
  return problems;
}

/** The text with each placeholder replaced by its value; a value the data lacks prints BLANK. */
export function fillTemplate(body: string, values: Partial<DocumentValues>): string {
  return body.replace(PLACEHOLDER, (whole, name: string) => {
    if (!byName.has(name)) return whole;
    return values[name as PlaceholderName] ?? BLANK;
  });
}
