import { eq, sql, type Placeholder } from "drizzle-orm";
import type { AppServices } from "~/context";
import { rowsOf, type Database } from "~/db/client.server";
import { causes, nolVersionFeatures } from "~/db/schema";
import { DEFAULT_NOL_FEATURES, type NolFeatures } from "~/domain/documents/notarize-offer";
import { notFound } from "~/domain/errors";
import { audit, actorOf } from "../audit.server";
import type { Viewer } from "../session.server";

/**
 * A member version's NoL features (spec §3 nolFeatures): the cause's defaults when the
 * version's first entry is made, kept with the version, so a later change of the defaults
 * changes new versions only; an admin can change one version's.
 */

type Version = { userId: string; causeCode: string; version: string };

/** Keeps the cause's current defaults for a version that has none yet (its first entry). */
export async function keepVersionFeatures(db: Database, v: Version) {
  await db.execute(sql`
    insert into ${nolVersionFeatures} (user_id, cause_code, descriptive_version, features)
    select ${v.userId}, ${causes.code}, ${v.version}, ${causes.defaultFeatures} from ${causes} where ${causes.code} = ${v.causeCode}
    on conflict do nothing`);
}

/** A row of featureRowsSql: a kept version's features, or a cause's defaults (no version). */
export type FeatureRow = { cause: string; version: string | null; features: Partial<NolFeatures> | null };

/**
 * The member's kept features and every cause's defaults (of one cause, or all), in one round
 * trip: the defaults are the rows without a version.
 */
export function featureRowsSql(userId: string | Placeholder, causeCode: string | Placeholder | null) {
  return sql`select ${causes.code} as cause, null as version, ${causes.defaultFeatures} as features from ${causes}
    union all
    select ${nolVersionFeatures.causeCode}, ${nolVersionFeatures.descriptiveVersion}, ${nolVersionFeatures.features}
      from ${nolVersionFeatures}
      where ${nolVersionFeatures.userId} = ${userId}${causeCode === null ? sql`` : sql` and ${nolVersionFeatures.causeCode} = ${causeCode}`}`;
}

/** The features of each of a member's versions (of one cause, or all), by "cause\0version". */
export async function featuresOf(db: Database, userId: string, causeCode: string | null) {
  const rows = rowsOf<FeatureRow>(await db.execute(featureRowsSql(userId, causeCode)));
  return featuresFrom(rows);
}

/** A version's features from the rows of featureRowsSql: its own, or its cause's defaults. */
export function featuresFrom(rows: readonly FeatureRow[]) {
  const byCause = new Map(rows.filter((r) => r.version === null).map((d) => [d.cause, d.features]));
  const kept = new Map(rows.filter((r) => r.version !== null).map((r) => [`${r.cause}\0${r.version}`, r.features]));
  // A version made before features were kept has its cause's defaults.
  return (cause: string, version: string): NolFeatures => ({
    ...DEFAULT_NOL_FEATURES,
    ...(kept.get(`${cause}\0${version}`) ?? byCause.get(cause) ?? {}),
  });
}

/** An admin sets one member version's features; audited with what changed. */
export async function setVersionFeatures(services: AppServices, admin: Viewer, v: Version, features: NolFeatures) {
  const [cause] = await services.db.select({ code: causes.code }).from(causes).where(eq(causes.code, v.causeCode));
  if (!cause) throw notFound("Unknown cause code");
  await services.db
    .insert(nolVersionFeatures)
    .values({ userId: v.userId, causeCode: v.causeCode, descriptiveVersion: v.version, features })
    .onConflictDoUpdate({
      target: [nolVersionFeatures.userId, nolVersionFeatures.causeCode, nolVersionFeatures.descriptiveVersion],
      set: { features, updatedAt: new Date() },
    });
  await audit(services.db, actorOf(admin), "nol.version-features", "user", v.userId, {
    cause: v.causeCode,
    version: v.version,
    features,
  });
}
