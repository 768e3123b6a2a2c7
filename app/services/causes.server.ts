import { sql } from "drizzle-orm";
import { z } from "zod";
import { rowsOf, type Database } from "~/db/client.server";
import { causes, countryCauses, settings } from "~/db/schema";
import { buildCauseCatalogue, type CauseCatalogue, type CauseRow, type CountryCauseRow } from "~/domain/causes";

const linkSettingsSchema = z.object({
  mnInviteLink: z.string().url().nullable().catch(null),
  mightyLinks: z.record(z.string().url()).catch({}),
});

export type CauseCatalogueResponse = CauseCatalogue & z.infer<typeof linkSettingsSchema>;

type CatalogueRow = {
  causes: CauseRow[];
  country_causes: CountryCauseRow[];
  mn_invite_link: unknown;
  mighty_links: unknown;
};

/**
 * GET /api/config/causes: the catalogue and the community links, from the database, in one
 * query (the NoL pages and the API read it on every request).
 */
export async function getCauseCatalogue(db: Database): Promise<CauseCatalogueResponse> {
  const setting = (key: string) => sql`(select ${settings.value} from ${settings} where ${settings.key} = ${key})`;
  const result = await db.execute(sql`select
    (select coalesce(json_agg(json_build_object('code', ${causes.code}, 'label', ${causes.label}, 'name', ${causes.name})), '[]'::json)
       from ${causes}) as causes,
    (select coalesce(json_agg(json_build_object('countryCode', ${countryCauses.countryCode}, 'causeCode', ${countryCauses.causeCode}, 'status', ${countryCauses.status})), '[]'::json)
       from ${countryCauses}) as country_causes,
    ${setting("mnInviteLink")} as mn_invite_link,
    ${setting("mightyLinks")} as mighty_links`);
  const [row] = rowsOf<CatalogueRow>(result);
  const links = linkSettingsSchema.parse({
    mnInviteLink: row!.mn_invite_link ?? null,
    mightyLinks: row!.mighty_links ?? {},
  });
  return { ...buildCauseCatalogue(row!.causes, row!.country_causes), ...links };
}
