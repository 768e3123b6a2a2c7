import { eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { causes, nolEntries, users } from "~/db/schema";
import { auditSubjectWords, type AuditSubject } from "~/domain/audit-words";

/**
 * The audit log's list names what each entry was about (a member, a member's NoL version, the
 * members a bulk change reached) rather than its table and id: a page of rows reads the members
 * and entries it names in two queries. The log and its CSV keep the ids.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What an entry's data may say of what it touched; anything else in it is not read here. */
const dataSchema = z
  .object({
    reached: z.number().int().nonnegative().optional(),
    members: z.array(z.string()).optional(),
    file: z.string().optional(),
    code: z.string().optional(),
  })
  .passthrough();

type Row = Record<string, unknown>;

function dataOf(row: Row): z.infer<typeof dataSchema> {
  const raw = row.data;
  if (typeof raw !== "string") return {};
  try {
    const parsed = dataSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

const text = (value: unknown) => (typeof value === "string" ? value : null);

/** A record's own name where people read it (a coupon's code, a cause's), never a uuid or a number. */
const readableName = (id: string | null) => (id && !UUID.test(id) && !/^\d+$/.test(id) && id.length <= 40 ? id : null);

/** Each row with `subject` (in words) and `subjectMember` (the member it opens, if one). */
export async function describeAuditRows(db: Database, rows: Row[]): Promise<Row[]> {
  const memberIds = [...new Set(rows.filter((r) => r.entity === "user").flatMap((r) => text(r.entityId) ?? []))].filter(
    (id) => UUID.test(id),
  );
  const entryIds = [...new Set(rows.filter((r) => r.entity === "nol_entry").flatMap((r) => text(r.entityId) ?? []))];
  const [members, entries] = await Promise.all([
    memberIds.length
      ? db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, memberIds))
      : [],
    entryIds.length
      ? db
          .select({
            id: nolEntries.id,
            ownerId: nolEntries.userId,
            owner: users.username,
            cause: causes.name,
            version: nolEntries.descriptiveVersion,
            round: nolEntries.round,
          })
          .from(nolEntries)
          .innerJoin(users, eq(users.id, nolEntries.userId))
          .innerJoin(causes, eq(causes.code, nolEntries.causeCode))
          .where(inArray(nolEntries.id, entryIds))
      : [],
  ]);
  const usernameOf = new Map(members.map((m) => [m.id, m.username]));
  const entryOf = new Map(entries.map((e) => [e.id, e]));
  return rows.map((row) => {
    const id = text(row.entityId);
    const entity = text(row.entity) ?? "";
    const data = dataOf(row);
    let subject: AuditSubject;
    let subjectMember: string | null = null;
    if (entity === "user" && id) {
      subject = { kind: "member", username: usernameOf.get(id) ?? null };
      if (usernameOf.has(id)) subjectMember = id;
    } else if (entity === "user") {
      subject = { kind: "members", count: data.reached ?? data.members?.length ?? 0, usernames: data.members ?? [] };
    } else if (entity === "nol_entry" && id && entryOf.has(id)) {
      const entry = entryOf.get(id)!;
      subject = { kind: "entry", owner: entry.owner, cause: entry.cause, version: entry.version, round: entry.round };
      subjectMember = entry.ownerId;
    } else {
      // An entry no longer kept has no name people read: its id is not one.
      const name = entity === "nol_entry" ? null : (data.file ?? data.code ?? readableName(id));
      subject = { kind: "record", entity, name };
    }
    return { ...row, subject: auditSubjectWords(subject), subjectMember };
  });
}
