import { emailSchema, usernameSchema } from "./account";
import { complimentaryEnd } from "./complimentary";
import { cleanLabel, importedLabels } from "./member-labels";

/**
 * Members import from CSV (decision 038): which column is which, what a line holds, and what
 * importing it would do. Pure: the services read the file and the database, and the dry run
 * and the import both decide here, so the dry run's report is the import's.
 */

/** The largest file an import takes. */
export const IMPORT_MAX_MB = 50;
export const IMPORT_MAX_BYTES = IMPORT_MAX_MB * 1024 * 1024;
export const IMPORT_TOO_LARGE = `The file is larger than ${IMPORT_MAX_MB} MB, the largest an import takes. Split it into smaller files.`;

export const IMPORT_FIELDS = [
  "email",
  "username",
  "name",
  "firstName",
  "lastName",
  "country",
  "createdAt",
  "labels",
  "plan",
  "tiers",
  "planEndsOn",
  "newsletter",
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** The headers each field is known by, lower-case with everything but letters and digits left out. */
const HEADER_NAMES: Record<ImportField, readonly string[]> = {
  email: ["email", "emailaddress", "mail"],
  username: ["username", "user", "login", "handle"],
  name: ["name", "fullname", "displayname", "membername"],
  firstName: ["firstname", "givenname", "forename"],
  lastName: ["lastname", "surname", "familyname"],
  // CC: Mailchimp's export names the country by its code.
  country: ["country", "countrycode", "cc"],
  createdAt: [
    "createdat",
    "created",
    "createddate",
    "datecreated",
    "joined",
    "joinedat",
    "joindate",
    "signupdate",
    "since",
    // Mailchimp's: when the member opted in to the list, the day they joined.
    "optintime",
  ],
  labels: ["labels", "label", "group", "groups", "tags", "tag"],
  plan: ["complimentaryplan", "complimentary", "plan", "membershipplan", "level", "membershiplevel"],
  tiers: ["tiers", "tier"],
  planEndsOn: [
    "complimentaryuntil",
    "complimentaryends",
    "complimentaryend",
    "complimentaryenddate",
    "complimentaryendson",
    "planends",
    "planendson",
    "enddate",
    "expires",
    "expiry",
    "expirationdate",
  ],
  newsletter: [
    "newsletter",
    "subscribedtoemails",
    "subscribed",
    "newsletterconsent",
    "emailconsent",
    "marketingconsent",
  ],
};

const headerKey = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, "");

export type ColumnMap = { header: string; field: ImportField | null }[];

/** What each header is read as; a header read once already, or not known, is not read. */
export function mapColumns(headers: readonly string[]): ColumnMap {
  const taken = new Set<ImportField>();
  return headers.map((header) => {
    const key = headerKey(header);
    const field = IMPORT_FIELDS.find((f) => !taken.has(f) && HEADER_NAMES[f].includes(key)) ?? null;
    if (field) taken.add(field);
    return { header, field };
  });
}

/** Why a file's columns cannot be imported, or null. */
export function columnsProblem(columns: ColumnMap): string | null {
  if (columns.some((c) => c.field === "email")) return null;
  const names = columns.map((c) => c.header.trim()).filter(Boolean);
  const found = names.length
    ? `its columns are: ${names.slice(0, 12).join(", ")}${names.length > 12 ? "…" : ""}`
    : "it has no header line";
  return `The file has no email column (${found}). The first line must name the columns, one of them "email".`;
}

/** A member as a line of the file gives them: what is not given is null. */
export type ImportedMember = {
  email: string;
  username: string | null;
  name: string | null;
  country: string | null;
  /** YYYY-MM-DD or an ISO time. */
  createdAt: string | null;
  labels: string[];
  /** The plan's id for a complimentary membership, once matched; null for none. */
  plan: string | null;
  planEndsOn: string | null;
  newsletter: boolean | null;
  /** What was not taken from the line, and why, in words. */
  notes: string[];
};

export type CatalogueFacts = {
  /** Country codes and names, lower-case, to their code. */
  countries: ReadonlyMap<string, string>;
  /** Membership plans' ids and titles, lower-case, to their id; `defaultPlan` for a plain "true". */
  plans: ReadonlyMap<string, string>;
  defaultPlan: string | null;
  /** Today, YYYY-MM-DD (UTC). */
  today: string;
};

export const NAME_MAX = 120;
export { LABEL_MAX, LABELS_MAX } from "./member-labels";

const TRUE_WORDS = new Set(["true", "yes", "y", "1", "on", "subscribed", "x"]);
const FALSE_WORDS = new Set(["false", "no", "n", "0", "off", "unsubscribed", ""]);

function yesNo(value: string): boolean | null {
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}

/** A date the file gives: YYYY-MM-DD, or an ISO time (Ghost's export); anything else is not read. */
export function importDate(value: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(
    value.trim(),
  );
  const day = match?.[1];
  if (!match || !day) return null;
  const midnight = new Date(`${day}T00:00:00Z`);
  // A day that is not in the calendar (2023-02-30) is no date, whatever Date makes of it.
  if (Number.isNaN(midnight.getTime()) || !midnight.toISOString().startsWith(day)) return null;
  if (!match[2]) return day;
  const time = new Date(`${day}T${match[2]}${match[3] ?? "Z"}`);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/** A cell a spreadsheet would run as a formula: kept as the text it is, never run. */
export const looksLikeFormula = (value: string) => /^[=+\-@\t\r]/.test(value);

const cellsOf = (record: readonly string[], columns: ColumnMap) => {
  const cells: Partial<Record<ImportField, string>> = {};
  columns.forEach((column, index) => {
    if (column.field) cells[column.field] = (record[index] ?? "").trim();
  });
  return cells;
};

export type ReadLine = { ok: true; member: ImportedMember } | { ok: false; email: string; reason: string };

/** One line of the file, read: the member it gives, or why it gives none. */
export function readLine(record: readonly string[], columns: ColumnMap, facts: CatalogueFacts): ReadLine {
  const cells = cellsOf(record, columns);
  const rawEmail = cells.email ?? "";
  if (!rawEmail) return { ok: false, email: "", reason: "No e-mail address" };
  const email = emailSchema.safeParse(rawEmail);
  if (!email.success) return { ok: false, email: rawEmail, reason: `Not a valid e-mail address: ${rawEmail}` };
  const notes: string[] = [];
  let username: string | null = null;
  if (cells.username) {
    const parsed = usernameSchema.safeParse(cells.username);
    if (!parsed.success)
      return { ok: false, email: email.data, reason: parsed.error.issues[0]?.message ?? "Not a username" };
    username = parsed.data;
  }
  let name = cells.name || [cells.firstName, cells.lastName].filter(Boolean).join(" ") || null;
  if (name && name.length > NAME_MAX) {
    notes.push(`The name is longer than ${NAME_MAX} characters: cut`);
    name = name.slice(0, NAME_MAX);
  }
  if (name && looksLikeFormula(name)) notes.push("The name starts like a formula: kept as text");
  let country: string | null = null;
  if (cells.country) {
    country = facts.countries.get(cells.country.toLowerCase()) ?? null;
    if (!country) notes.push(`No country "${cells.country}": left empty`);
  }
  let createdAt: string | null = null;
  if (cells.createdAt) {
    createdAt = importDate(cells.createdAt);
    if (!createdAt) notes.push(`The date joined "${cells.createdAt}" is not YYYY-MM-DD: today is used`);
    else if (createdAt.slice(0, 10) > facts.today) {
      notes.push(`The date joined ${createdAt.slice(0, 10)} is in the future: today is used`);
      createdAt = null;
    }
  }
  const labels = importedLabels(cells.labels ?? "", notes);
  const newsletter = cells.newsletter === undefined ? null : yesNo(cells.newsletter);
  if (cells.newsletter && newsletter === null)
    notes.push(`Newsletter "${cells.newsletter}" is not yes or no: left as it is`);
  const { plan, planEndsOn } = planOf(cells, facts, notes);
  return {
    ok: true,
    member: { email: email.data, username, name, country, createdAt, labels, plan, planEndsOn, newsletter, notes },
  };
}

/** The complimentary plan a line asks for: a plan's id or title, or yes (Ghost) with its tier or the default plan. */
function planOf(cells: Partial<Record<ImportField, string>>, facts: CatalogueFacts, notes: string[]) {
  const none = { plan: null, planEndsOn: null };
  const asked = cells.plan ?? "";
  const answer = yesNo(asked);
  if (answer === false) return none;
  let plan: string | null;
  if (answer === true) {
    const tier = cells.tiers?.split(",")[0]?.trim().toLowerCase();
    plan = (tier && facts.plans.get(tier)) || facts.defaultPlan;
  } else plan = facts.plans.get(asked.toLowerCase()) ?? null;
  if (!plan) {
    notes.push(`No membership plan "${asked}": no complimentary membership`);
    return none;
  }
  if (!cells.planEndsOn) return { plan, planEndsOn: null };
  const day = importDate(cells.planEndsOn)?.slice(0, 10);
  const end = day ? complimentaryEnd(day, facts.today) : { error: "The end date is not YYYY-MM-DD" };
  if ("error" in end) {
    notes.push(`${end.error} (${cells.planEndsOn}): no complimentary membership`);
    return none;
  }
  return { plan, planEndsOn: day ?? null };
}

/** What the database holds of a line's member, for deciding what to do with it. */
export type ExistingMember = {
  id: string;
  username: string;
  name: string | null;
  country: string | null;
  labels: string[];
  closed: boolean;
  /** They pay for a membership: a complimentary one would be a second. */
  paying: boolean;
  /** The plan of their complimentary membership in force, if any. */
  complimentary: string | null;
};

export type Plan =
  | { action: "create"; member: ImportedMember; reason: string }
  | { action: "update"; member: ImportedMember; reason: string; existing: ExistingMember }
  | { action: "skip"; reason: string };

const notesOf = (member: ImportedMember) => member.notes.join("; ");

/** The complimentary membership a line gives, in words, or "". */
const grantWords = ({ plan, planEndsOn }: Pick<ImportedMember, "plan" | "planEndsOn">) =>
  plan ? `Complimentary ${plan} membership${planEndsOn ? ` until ${planEndsOn}` : ""}` : "";
const joined = (...parts: string[]) => parts.filter(Boolean).join(". ");

/**
 * What importing one read line does, given the member the database holds by its e-mail, and
 * whether that member has answered the newsletter here already (subscribed, or left it).
 */
export function planLine(member: ImportedMember, existing: ExistingMember | null, newsletterAnswered: boolean): Plan {
  if (!existing) return { action: "create", member, reason: joined(grantWords(member), notesOf(member)) };
  if (existing.closed) return { action: "skip", reason: "A member with this e-mail has closed their account" };
  const changes: string[] = [];
  const notes = [...member.notes];
  if (member.name && member.name !== existing.name) changes.push("name");
  if (member.country && member.country !== existing.country) changes.push("country");
  const had = existing.labels.map(cleanLabel);
  if (member.labels.some((label) => !had.includes(label))) changes.push("labels");
  if (member.newsletter && !newsletterAnswered) changes.push("newsletter");
  let plan = member.plan;
  if (plan && existing.paying) {
    notes.push("Pays for a membership: no complimentary one");
    plan = null;
  } else if (plan && existing.complimentary === plan && !member.planEndsOn) plan = null;
  if (plan) changes.push(grantWords({ plan, planEndsOn: member.planEndsOn }).toLowerCase());
  if (member.username && member.username !== existing.username) notes.push("The username is kept as it is");
  if (changes.length === 0)
    return { action: "skip", reason: joined("Already a member, nothing to change", notes.join("; ")) };
  return {
    action: "update",
    member: { ...member, plan, planEndsOn: plan ? member.planEndsOn : null },
    existing,
    reason: joined(`Already a member: ${changes.join(", ")}`, notes.join("; ")),
  };
}

/** Letters that are not a base letter with marks, and how people write them in a-z. */
const OWN_LETTERS: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  œ: "oe",
  ø: "o",
  đ: "d",
  ð: "d",
  ł: "l",
  þ: "th",
  ı: "i",
};

/**
 * The username a new member's e-mail suggests, when the file gives none. Usernames are a-z, 0-9,
 * _ and - (USERNAME_RULE, as sign-up and login take them), so letters with marks lose them
 * ("jöns.jakob" → "jons-jakob") rather than becoming dashes.
 */
export function usernameFromEmail(email: string): string {
  const local = email.split("@")[0] ?? "";
  const base = local
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (letter) => OWN_LETTERS[letter] ?? letter)
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^a-z0-9_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 26);
  return base.length >= 3 ? base : `member-${base}`.replace(/-$/, "");
}

/** The names to try for a new member, in order: the base, then base-2 … base-9. */
export function usernameCandidates(base: string): string[] {
  return [base, ...Array.from({ length: 8 }, (_, i) => `${base.slice(0, 29)}-${i + 2}`)];
}

/** The line of an earlier line with the same key in the file, or null; remembers this one. */
export function firstSeen(seen: Map<string, number>, key: string, line: number): number | null {
  const earlier = seen.get(key);
  if (earlier !== undefined) return earlier;
  seen.set(key, line);
  return null;
}
