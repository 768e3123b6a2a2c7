import { eq } from "drizzle-orm";
import type { AppServices } from "~/context";
import { settings } from "~/db/schema";
import type { CommunityLinksForm } from "~/domain/community-links";
import { invalid } from "~/domain/errors";
import { audit, actorOf } from "./audit.server";
import { readCauseCatalogue } from "./causes.server";
import type { Viewer } from "./session.server";

/**
 * The community's links on /admin/settings: the invite link and a community space per cause,
 * kept in `settings` under the names GET /api/config/causes answers with (spec §3, §7).
 */

/** The links as they are, and the causes a space can be given to. */
export async function communityLinks(services: Pick<AppServices, "db" | "logger">) {
  const catalogue = await readCauseCatalogue(services);
  return {
    mnInviteLink: catalogue.mnInviteLink,
    mightyLinks: catalogue.mightyLinks,
    causes: Object.entries(catalogue.causes)
      .map(([code, cause]) => ({ code, name: cause.name }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/**
 * Saves the links as the form gives them: an empty field removes its link. A space for a cause
 * the catalogue does not have is refused and nothing changes. Audited with what was before.
 */
export async function saveCommunityLinks(services: AppServices, viewer: Viewer, form: CommunityLinksForm) {
  const before = await communityLinks(services);
  const known = new Set(before.causes.map((c) => c.code));
  const unknown = Object.keys(form.mightyLinks).filter((code) => !known.has(code));
  if (unknown.length > 0) throw invalid(`No cause has the code ${unknown.join(", ")}`);
  const mightyLinks = Object.fromEntries(
    Object.entries(form.mightyLinks).filter((entry): entry is [string, string] => Boolean(entry[1])),
  );
  const after = { mnInviteLink: form.mnInviteLink ?? null, mightyLinks };
  await services.db.transaction(async (tx) => {
    if (after.mnInviteLink) {
      await tx
        .insert(settings)
        .values({ key: "mnInviteLink", value: after.mnInviteLink })
        .onConflictDoUpdate({ target: settings.key, set: { value: after.mnInviteLink } });
    } else {
      await tx.delete(settings).where(eq(settings.key, "mnInviteLink"));
    }
    await tx
      .insert(settings)
      .values({ key: "mightyLinks", value: mightyLinks })
      .onConflictDoUpdate({ target: settings.key, set: { value: mightyLinks } });
  });
  await audit(services.db, actorOf(viewer), "settings.links", "settings", "links", {
    before: { mnInviteLink: before.mnInviteLink, mightyLinks: before.mightyLinks },
    after,
  });
}
