import { inArray } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { causes, countryCauses, settings } from "~/db/schema";
import { buildCauseCatalogue, type CauseCatalogue } from "~/domain/causes";

const linkSettingsSchema = z.object({
  mnInviteLink: z.string().url().nullable().catch(null),
  mightyLinks: z.record(z.string().url()).catch({}),
});

export type CauseCatalogueResponse = CauseCatalogue & z.infer<typeof linkSettingsSchema>;

/** GET /api/config/causes: the catalogue and the community links, from the database. */
export async function getCauseCatalogue(db: Database): Promise<CauseCatalogueResponse> {
  const [causeRows, countryRows, linkRows] = await Promise.all([
    db.select({ code: causes.code, label: causes.label, name: causes.name }).from(causes),
    db
      .select({
        countryCode: countryCauses.countryCode,
        causeCode: countryCauses.causeCode,
        status: countryCauses.status,
      })
      .from(countryCauses),
    db
      .select({ key: settings.key, value: settings.value })
      .from(settings)
      .where(inArray(settings.key, ["mnInviteLink", "mightyLinks"])),
  ]);
  const links = linkSettingsSchema.parse({
    mnInviteLink: linkRows.find((r) => r.key === "mnInviteLink")?.value ?? null,
    mightyLinks: linkRows.find((r) => r.key === "mightyLinks")?.value ?? {},
  });
  return { ...buildCauseCatalogue(causeRows, countryRows), ...links };
}
