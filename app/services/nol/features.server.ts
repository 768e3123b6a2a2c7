import { and, eq, sql } from "drizzle-orm";
import { unionAll } from "drizzle-orm/pg-core";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { preparedQuery } from "~/db/prepared.server";
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

/**
 * The member's kept features and every cause's defaults, in one round trip: the defaults are
 * the rows without a version. Prepared once per database (the versions API reads it each time).
 */
function featuresQuery(db: Database, ofCause: boolean, name: string) {
  return unionAll(
    db
      .select({ cause: causes.code, version: sql<string | null>`null`.as("version"), features: causes.defaultFeatures })
      .from(causes),
    db
      .select({
        cause: nolVersionFeatures.causeCode,
        version: nolVersionFeatures.descriptiveVersion,
        features: nolVersionFeatures.features,
      })
      .from(nolVersionFeatures)
      .where(
        and(
          eq(nolVersionFeatures.userId, sql.placeholder("userId")),
          ofCause ? eq(nolVersionFeatures.causeCode, sql.placeholder("causeCode")) : undefined,
        ),
      ),
  ).prepare(name);
}

/** The features of each of a member's versions (of one cause, or all), by "cause\0version". */
export async function featuresOf(db: Database, userId: string, causeCode: string | null) {
  const rows = causeCode
    ? await preparedQuery(db, "features_of_member_cause", (d, name) => featuresQuery(d, true, name)).execute({
        userId,
        causeCode,
      })
    : await preparedQuery(db, "features_of_member", (d, name) => featuresQuery(d, false, name)).execute({ userId });
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
