import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { z } from "zod";
import type { AppServices } from "~/context";
import { rowsOf } from "~/db/client.server";
import { fixedQuery } from "~/db/prepared.server";
import { causes, countryCauses, settings } from "~/db/schema";
import { buildCauseCatalogue, type CauseCatalogue, type CauseRow, type CountryCauseRow } from "~/domain/causes";
import { MISSING_CAUSES } from "~/domain/nol/causes";
import type { ResponseWindows } from "~/domain/nol/timeline";

const linkSettingsSchema = z.object({
  mnInviteLink: z.string().url().nullable().catch(null),
  mightyLinks: z.record(z.string().url()).catch({}),
});

export type CauseCatalogueResponse = CauseCatalogue & z.infer<typeof linkSettingsSchema>;

/** The catalogue as the server reads it: with the response windows each cause sets (decision 034). */
export type CauseCatalogueRead = CauseCatalogueResponse & { windows: Record<string, Partial<ResponseWindows>> };

type CatalogueRow = {
  causes: CauseRow[];
  windows: Record<string, Partial<ResponseWindows>>;
  country_causes: CountryCauseRow[];
  mn_invite_link: unknown;
  mighty_links: unknown;
};

/** The servers (by their logger) that have logged the catalogue as empty since it last had causes. */
const warnedEmpty = new WeakSet<Logger>();

/**
 * Spec §9 "Missing causes": a catalogue without causes is logged as a warning where it is
 * read, once while it stays empty (not on every request), and again if it empties later.
 */
export function noteCatalogueSize(logger: Logger, causeCount: number): void {
  if (causeCount > 0) {
    warnedEmpty.delete(logger);
  } else if (!warnedEmpty.has(logger)) {
    warnedEmpty.add(logger);
    logger.warn(MISSING_CAUSES);
  }
}

// A key of our own, written into the text (the text is made once, without parameters).
const setting = (key: "mnInviteLink" | "mightyLinks") =>
  sql`(select ${settings.value} from ${settings} where ${settings.key} = ${sql.raw(`'${key}'`)})`;

/**
 * The catalogue's one query, its text made once: every NoL page reads it, and drizzle would
 * otherwise build the same text from its parts on each request.
 */
const CATALOGUE_QUERY = fixedQuery(
  sql`select
    (select coalesce(json_agg(json_build_object('code', ${causes.code}, 'label', ${causes.label}, 'name', ${causes.name})), '[]'::json)
       from ${causes}) as causes,
    (select coalesce(json_object_agg(${causes.code}, ${causes.responseWindows}), '{}'::json)
       from ${causes}) as windows,
    (select coalesce(json_agg(json_build_object('countryCode', ${countryCauses.countryCode}, 'causeCode', ${countryCauses.causeCode}, 'status', ${countryCauses.status})), '[]'::json)
       from ${countryCauses}) as country_causes,
    ${setting("mnInviteLink")} as mn_invite_link,
    ${setting("mightyLinks")} as mighty_links`,
);

/**
 * GET /api/config/causes: the catalogue and the community links, from the database in one
 * query, kept by the server until one of their tables changes (the NoL pages and the API read
 * it on every request).
 */
export function getCauseCatalogue(services: Pick<AppServices, "db" | "logger" | "reference">) {
  return services.reference.read("cause-catalogue", () => readCauseCatalogue(services));
}

/** The catalogue as the database has it now: for the admin who changes it. */
export async function readCauseCatalogue({
  db,
  logger,
}: Pick<AppServices, "db" | "logger">): Promise<CauseCatalogueRead> {
  const result = await db.execute(CATALOGUE_QUERY);
  const [row] = rowsOf<CatalogueRow>(result);
  const links = linkSettingsSchema.parse({
    mnInviteLink: row!.mn_invite_link ?? null,
    mightyLinks: row!.mighty_links ?? {},
  });
  noteCatalogueSize(logger, row!.causes.length);
  return { ...buildCauseCatalogue(row!.causes, row!.country_causes), ...links, windows: row!.windows };
}

/** The catalogue as GET /api/config/causes sends it (spec §3): without the causes' response windows. */
export function publicCatalogue({ windows: _windows, ...catalogue }: CauseCatalogueRead): CauseCatalogueResponse {
  return catalogue;
}
