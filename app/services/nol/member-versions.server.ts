import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { pendingSubmissions } from "~/db/schema";
import type { UserRow, Viewer } from "../session.server";
import { authEntry, requireCauseCode, resolveOwner } from "./access.server";
import { entriesOf, entryJson } from "./entries.server";
import { featuresOf } from "./features.server";

/** The owner's unresolved submissions (of one cause), newest first; prepared once per database. */
function pendingQuery(db: Database, ofCause: boolean, name: string) {
  return db
    .select()
    .from(pendingSubmissions)
    .where(
      and(
        eq(pendingSubmissions.userId, sql.placeholder("userId")),
        isNull(pendingSubmissions.resolvedAt),
        ofCause ? eq(pendingSubmissions.causeCode, sql.placeholder("causeCode")) : undefined,
      ),
    )
    .orderBy(desc(pendingSubmissions.createdAt))
    .prepare(name);
}

/**
 * GET /api/entry/nol-member-versions (spec §7): the owner's entries (of a cause, or one by
 * id), their pending submissions, nolFeatures and userAuthInfo.
 */
export async function memberVersions(
  services: AppServices,
  owner: UserRow,
  query: { cause: string | null; id: string | null },
) {
  const [entries, pending, features] = await Promise.all([
    entriesOf(services.db, owner.id, query.cause),
    query.cause
      ? preparedQuery(services.db, "pending_of_owner_cause", (db, name) => pendingQuery(db, true, name)).execute({
          userId: owner.id,
          causeCode: query.cause,
        })
      : preparedQuery(services.db, "pending_of_owner", (db, name) => pendingQuery(db, false, name)).execute({
          userId: owner.id,
        }),
    featuresOf(services.db, owner.id, query.cause),
  ]);
  const rows = entries.filter((r) => !query.id || r.id === query.id);
  const versions = new Map<string, { CauseCode: string; DescriptiveVersion: string; AllowNotarizeOnline: boolean }>();
  for (const row of rows) {
    versions.set(`${row.causeCode}\0${row.descriptiveVersion}`, {
      CauseCode: row.causeCode,
      DescriptiveVersion: row.descriptiveVersion,
      ...features(row.causeCode, row.descriptiveVersion),
    });
  }
  return {
    list: rows.map((r) => entryJson(r, owner.username)),
    pending: pending.map((p) => ({
      username: p.username,
      cause: p.causeCode,
      descriptive_version: p.descriptiveVersion,
      prior_rows: p.priorRows,
      entry_id: p.entryId,
      prior_updated: p.priorUpdated?.toISOString() ?? null,
    })),
    nolFeatures: [...versions.values()],
    userAuthInfo: authEntry(services, owner),
  };
}

/** The API call as a whole: the cause must exist, the owner be readable by the viewer. */
export async function memberVersionsFor(
  services: AppServices,
  viewer: Viewer,
  query: { cause?: string; username?: string; id?: string },
) {
  if (query.cause) await requireCauseCode(services.db, query.cause);
  const owner = await resolveOwner(services.db, viewer, query.username);
  return memberVersions(services, owner, { cause: query.cause ?? null, id: query.id ?? null });
}
