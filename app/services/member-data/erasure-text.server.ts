import { eq, inArray, sql } from "drizzle-orm";
import { rowsOf, type Database } from "~/db/client.server";
import { mailings, nolEntries, respondents, type users } from "~/db/schema";

/**
 * The member's words that may sit in records not tied to them by a key (a provider's webhook
 * payload, a job's data, an admin's search kept in the audit log): their e-mail, username and
 * name, and the address lines they gave for themselves and their respondents.
 */

export const ERASED_MARK = "[erased]";

/** Address parts worth searching for: a street line or a name, not a lone city, state or ZIP code. */
const searchable = (value: unknown): value is string =>
  typeof value === "string" && value.trim().length >= 6 && /\s/.test(value.trim());

/**
 * `all` for the text of loose records; `own` (theirs alone: not their respondents', whom
 * another member may name too) for the documents of others made again without them.
 */
export type MemberWords = { all: string[]; own: string[] };

export async function memberWords(tx: Database, member: typeof users.$inferSelect): Promise<MemberWords> {
  const entryIds = tx.select({ id: nolEntries.id }).from(nolEntries).where(eq(nolEntries.userId, member.id));
  const given = await tx
    .select({ address: respondents.address })
    .from(respondents)
    .where(inArray(respondents.entryId, entryIds));
  const mailed = await tx
    .select({ from: mailings.fromAddress, to: mailings.toAddress })
    .from(mailings)
    .where(eq(mailings.userId, member.id));
  const profiles = await tx
    .select({ profile: nolEntries.profile, mail: nolEntries.mail })
    .from(nolEntries)
    .where(eq(nolEntries.userId, member.id));
  const ownParts = [
    ...mailed.flatMap((m) => Object.values(m.from)),
    ...profiles.flatMap((p) =>
      Object.entries({ ...p.profile, ...p.mail })
        .filter(([key]) => /address|street|line/i.test(key))
        .map(([, value]) => value),
    ),
  ].filter(searchable);
  const respondentParts = [
    ...given.flatMap((r) => Object.values(r.address ?? {})),
    ...mailed.flatMap((m) => Object.values(m.to)),
  ].filter(searchable);
  const wordsOf = (parts: string[]) => {
    const words = [member.email, member.username, member.name, ...parts].filter(
      (w): w is string => typeof w === "string" && w.trim().length >= 3,
    );
    return [...new Set(words.map((w) => w.trim()))];
  };
  return { all: wordsOf([...ownParts, ...respondentParts]), own: wordsOf(ownParts) };
}

const regexEscape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The words as one case-blind pattern to replace, the longest first: a name goes whole, not its first word only. */
export const wordsRegExp = (words: string[]) =>
  new RegExp(
    [...words]
      .sort((a, b) => b.length - a.length)
      .map(regexEscape)
      .join("|"),
    "gi",
  );

/**
 * One case-blind pattern for all the words, as they are written inside a JSON document's text
 * (a quote or backslash in a name is escaped there) and in plain text alike.
 */
export function wordsPattern(words: string[]): string {
  const forms = new Set(words.flatMap((w) => [w, JSON.stringify(w).slice(1, -1)]));
  return [...forms].map(regexEscape).join("|");
}

/** A text or JSON column of records not keyed to the member, searched and rewritten. */
type LooseColumn = { table: string; column: string; json: boolean };

export const LOOSE_COLUMNS: LooseColumn[] = [
  { table: "webhook_events", column: "payload", json: true },
  { table: "webhook_events", column: "error", json: false },
  { table: "sandbox_objects", column: "data", json: true },
  { table: "jobs", column: "payload", json: true },
  { table: "jobs", column: "last_error", json: false },
  { table: "mailing_events", column: "body", json: true },
  { table: "error_reports", column: "message", json: false },
  { table: "error_reports", column: "href", json: false },
  { table: "error_reports", column: "state", json: true },
  { table: "support_requests", column: "message", json: false },
  { table: "support_requests", column: "subject", json: false },
  { table: "form_entries", column: "data", json: true },
  { table: "form_entries", column: "review_note", json: false },
  { table: "member_import_rows", column: "member", json: true },
  { table: "member_import_rows", column: "reason", json: false },
  { table: "member_import_rows", column: "outcome_reason", json: false },
  { table: "subscriptions", column: "grant_note", json: false },
  { table: "credit_entries", column: "note", json: false },
  { table: "mail_outbox", column: "subject", json: false },
  { table: "mail_outbox", column: "text", json: false },
  { table: "mail_outbox", column: "html", json: false },
  { table: "audit_log", column: "data", json: true },
];

/** The words taken out of a JSON document's string values; its keys and shape stay. */
export function eraseWords(value: unknown, words: RegExp): unknown {
  if (typeof value === "string") return value.replace(words, ERASED_MARK);
  if (Array.isArray(value)) return value.map((v) => eraseWords(v, words));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, eraseWords(v, words)]));
  }
  return value;
}

/**
 * Takes the words out of the column wherever they occur: the rows are found by the database
 * (the pattern over the column's text) and rewritten one by one, a JSON document value by value.
 */
export async function rewriteColumn(tx: Database, { table, column, json }: LooseColumn, words: string[]) {
  const name = sql.raw(`"${table}"."${column}"`);
  const found = rowsOf<{ at: string; value: unknown }>(
    await tx.execute(
      sql`select ctid::text as at, ${name} as value from ${sql.raw(`"${table}"`)} where ${name}::text ~* ${wordsPattern(words)}`,
    ),
  );
  const plain = wordsRegExp(words);
  for (const row of found) {
    const value = json
      ? JSON.stringify(eraseWords(typeof row.value === "string" ? JSON.parse(row.value) : row.value, plain))
      : String(row.value).replace(plain, ERASED_MARK);
    const cast = json ? sql`${value}::jsonb` : sql`${value}`;
    await tx.execute(
      sql`update ${sql.raw(`"${table}"`)} set ${sql.raw(`"${column}"`)} = ${cast} where ctid = ${row.at}::tid`,
    );
  }
}
