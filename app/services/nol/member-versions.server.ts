import { sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
import { rowsFromJson } from "~/db/json-rows.server";
import { nolEntries, pendingSubmissions } from "~/db/schema";
import type { PendingBody } from "~/lib/submitted-entry";
import type { UserRow, Viewer } from "../session.server";
import { authEntry, requireCauseCode, resolveOwner } from "./access.server";
import { ENTRY_ORDER, entryJson } from "./entries.server";
import { featureRowsSql, featuresFrom, type FeatureRow } from "./features.server";

/**
 * The owner's entries (of one cause) in version, form and bill order, their unresolved
 * submissions, newest first, and the features of their versions with every cause's defaults,
 * in one query, prepared once per database.
 */
function versionsQuery(db: Database, ofCause: boolean, name: string) {
  const p = pendingSubmissions;
  const e = nolEntries;
  const owner = sql.placeholder("ownerId");
  const cause = ofCause ? sql.placeholder("causeCode") : null;
  const priorUpdated = sql`to_char(${p.priorUpdated} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  return db
    .select({
      entries: sql<Record<string, unknown>[]>`(select coalesce(json_agg(to_jsonb(${e})
          order by ${sql.join(ENTRY_ORDER, sql`, `)}), '[]'::json)
        from ${e}
        where ${e.userId} = ${owner}${cause ? sql` and ${e.causeCode} = ${cause}` : sql``})`,
      pending: sql<PendingBody[]>`(select coalesce(json_agg(json_build_object(
          'username', ${p.username}, 'cause', ${p.causeCode}, 'descriptive_version', ${p.descriptiveVersion},
          'prior_rows', ${p.priorRows}, 'entry_id', ${p.entryId}, 'prior_updated', ${priorUpdated})
          order by ${p.createdAt} desc), '[]'::json)
        from ${p}
        where ${p.userId} = ${owner} and ${p.resolvedAt} is null${cause ? sql` and ${p.causeCode} = ${cause}` : sql``})`,
      features: sql<
        FeatureRow[]
      >`(select coalesce(json_agg(f), '[]'::json) from (${featureRowsSql(owner, cause)}) as f)`,
    })
    .from(sql`(select 1) as one`)
    .prepare(name);
}

/**
 * The owner's versions as versionsQuery reads them; through the server's cache of owners' data
 * when the answer may be kept (owned-cache.server.ts): the entries, pending submissions and
 * version features notify as the owner's entries, and the causes' defaults are the reference
 * data, whose changes start a new key.
 */
function versionsOf(services: AppServices, ownerId: string, causeCode: string | null) {
  const key = `versions:${ownerId}:${causeCode ?? ""}:${services.reference.changes}`;
  return services.owned.read(key, `entries:${ownerId}`, () => readVersions(services.db, ownerId, causeCode));
}

async function readVersions(db: Database, ownerId: string, causeCode: string | null) {
  const ofCause = Boolean(causeCode);
  const query = preparedQuery(db, ofCause ? "versions_of_owner_cause" : "versions_of_owner", (d, name) =>
    versionsQuery(d, ofCause, name),
  );
  const [row] = await query.execute(ofCause ? { ownerId, causeCode } : { ownerId });
  return {
    entries: rowsFromJson(nolEntries, row!.entries),
    pending: row!.pending,
    features: featuresFrom(row!.features),
  };
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
  const { entries, pending, features } = await versionsOf(services, owner.id, query.cause);
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
    pending,
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
