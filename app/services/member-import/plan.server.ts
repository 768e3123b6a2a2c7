import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { countries, newsletterSubscriptions, plans, subscriptions, users } from "~/db/schema";
import { LIVE_STATUSES } from "~/domain/billing";
import { COMPLIMENTARY } from "~/domain/complimentary";
import {
  planLine,
  type CatalogueFacts,
  type ExistingMember,
  type ImportedMember,
  type Plan,
} from "~/domain/member-import";
import { dayOf } from "~/domain/nol/timeline";
import type { Tx } from "../billing/payment-records.server";

/**
 * What the dry run and the import both ask of the database for a batch of lines: the members
 * their e-mails belong to, and the usernames taken. Both then decide with `planLine`.
 */

type Reader = Database | Tx;

/** The countries and membership plans a line may name, as of now. */
export async function catalogueFacts(db: Reader, now = new Date()): Promise<CatalogueFacts> {
  const [countryRows, planRows] = await Promise.all([
    db.select().from(countries),
    db
      .select({ id: plans.id, title: plans.title })
      .from(plans)
      .where(and(eq(plans.active, true), eq(plans.kind, "subscription")))
      .orderBy(asc(plans.sort), asc(plans.id)),
  ]);
  const countryMap = new Map<string, string>();
  for (const c of countryRows) {
    countryMap.set(c.code.toLowerCase(), c.code);
    countryMap.set(c.name.toLowerCase(), c.code);
  }
  const planMap = new Map<string, string>();
  for (const p of planRows) {
    planMap.set(p.title.toLowerCase(), p.id);
    planMap.set(p.id.toLowerCase(), p.id);
  }
  return { countries: countryMap, plans: planMap, defaultPlan: planRows[0]?.id ?? null, today: dayOf(now) };
}

/** `newsletter`: they have answered the newsletter already (subscribed, or left it). */
export type Existing = ExistingMember & { newsletter: boolean };

/** The members the e-mails belong to, by lower-case e-mail. */
export async function existingMembers(db: Reader, emails: readonly string[]): Promise<Map<string, Existing>> {
  if (emails.length === 0) return new Map();
  const live = sql.join(
    LIVE_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  // The subqueries name the outer row as "users".x: in a select from one table the query
  // builder writes a column without its table, which inside a subquery would be the
  // subquery's own column of that name.
  const rows = await db
    .select({
      id: users.id,
      email: sql<string>`lower(${users.email})`,
      username: users.username,
      name: users.name,
      country: users.countryCode,
      labels: users.labels,
      closed: sql<boolean>`${users.disabledAt} is not null`,
      paying: sql<boolean>`exists (select 1 from ${subscriptions} s where s.user_id = ${users}.id
        and s.status in (${live}) and s.provider <> ${COMPLIMENTARY})`,
      complimentary: sql<string | null>`(select s.plan_id from ${subscriptions} s where s.user_id = ${users}.id
        and s.status = 'ACTIVE' and s.provider = ${COMPLIMENTARY} limit 1)`,
      newsletter: sql<boolean>`exists (select 1 from ${newsletterSubscriptions} n
        where lower(n.email) = lower(${users}.email) and n.status in ('confirmed', 'unsubscribed'))`,
    })
    .from(users)
    .where(inArray(sql`lower(${users.email})`, [...emails]));
  return new Map(rows.map((row) => [row.email, row]));
}

/** Which of the names are taken, lower-case. */
export async function takenUsernames(db: Reader, names: readonly string[]): Promise<Set<string>> {
  if (names.length === 0) return new Set();
  const rows = await db
    .select({ username: sql<string>`lower(${users.username})` })
    .from(users)
    .where(inArray(sql`lower(${users.username})`, [...names]));
  return new Set(rows.map((row) => row.username));
}

/** A line ready to be decided: the member it gives, with the username they will have if new. */
export type ReadyLine = { row: number; member: ImportedMember & { username: string } };

/**
 * What importing each line does, decided against the members the database holds and the
 * usernames taken: the same lines give the same plan in the dry run and in the import, unless
 * the members changed in between.
 */
export function decideLines(
  lines: readonly ReadyLine[],
  existing: ReadonlyMap<string, Existing>,
  taken: ReadonlySet<string>,
): Map<number, Plan> {
  const decided = new Map<number, Plan>();
  for (const line of lines) {
    const member = existing.get(line.member.email) ?? null;
    if (!member && taken.has(line.member.username)) {
      decided.set(line.row, {
        action: "skip",
        reason: `The username ${line.member.username} belongs to another member`,
      });
      continue;
    }
    decided.set(line.row, planLine(line.member, member, member?.newsletter ?? false));
  }
  return decided;
}

/** `decideLines` against the database as it is now. */
export async function planLines(db: Reader, lines: readonly ReadyLine[]): Promise<Map<number, Plan>> {
  const existing = await existingMembers(
    db,
    lines.map((line) => line.member.email),
  );
  const taken = await takenUsernames(
    db,
    lines.filter((line) => !existing.has(line.member.email)).map((line) => line.member.username),
  );
  return decideLines(lines, existing, taken);
}
