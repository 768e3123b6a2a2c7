import type { AppServices } from "~/context";
import { claims } from "~/db/schema";
import { documentFilename, roundMailingOf, type DocumentFacts } from "~/domain/documents/document-data";
import { notFound } from "~/domain/errors";
import type { UserRow, Viewer } from "../session.server";
import { versionState, type EntryRow } from "../nol/entries.server";
import { causeOf, type PageAddress } from "../nol/pages.server";
import { roundServiceOf, serviceEntry } from "../nol/service.server";
import { renderDocument } from "./render.server";
import { templateInUse } from "./templates.server";
import { versionClaim } from "../version-keys.server";

/**
 * A round's proof of service (decision 035): each respondent it was mailed to, with the address
 * used, the mailing day, the envelope's tracking number and the delivery, through the
 * admin-editable "proof of service" template of the cause and round.
 */

export async function proofOfService(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: { cause: string; version: string; round: number },
) {
  const place = await causeOf(services, viewer, address, input.cause);
  return proofOfServiceOf(services, place, input);
}

/** The document itself, of the owner's entries of a cause (their pages' place, or their data archive). */
export async function proofOfServiceOf(
  services: AppServices,
  place: {
    owner: Pick<UserRow, "id" | "name" | "username" | "countryCode">;
    cause: { code: string; name: string };
    rows: EntryRow[];
  },
  input: { version: string; round: number },
) {
  const { db } = services;
  if (!place.rows.some((row) => row.descriptiveVersion === input.version))
    throw notFound("This version has no notices yet");
  const state = versionState(place.rows, input.version);
  const entry = serviceEntry(state, input.round);
  if (!entry || !state.creator) throw notFound("This round has not been mailed yet");
  const served = await roundServiceOf(db, { creator: state.creator, entry, round: input.round });
  if (!served.mailedOn) throw notFound("This round has not been mailed yet");

  const [claim] = await db
    .select({ exhibit: claims.exhibitId, countryCode: claims.countryCode })
    .from(claims)
    .where(versionClaim(place.owner.id, place.cause.code, input.version));
  const data = state.creator.data as { claimantName?: unknown; claimantAddress?: unknown };
  const given = data.claimantName;
  const facts: DocumentFacts = {
    round: input.round,
    claimantName: typeof given === "string" && given ? given : (place.owner.name ?? place.owner.username),
    claimantAddress: typeof data.claimantAddress === "string" ? data.claimantAddress : null,
    cause: { code: place.cause.code, name: place.cause.name },
    countryCode: claim?.countryCode ?? place.owner.countryCode ?? "",
    version: input.version,
    exhibit: claim?.exhibit ?? null,
    noticeDate: entry.updatedAt,
    respondents: served.respondents,
    dailyAmountCents: null,
    mailing: roundMailingOf(served),
    bill: null,
    served,
  };
  const template = await templateInUse(db, {
    causeCode: place.cause.code,
    kind: "proof-of-service",
    round: input.round,
  });
  return {
    bytes: await renderDocument(services, template.body, facts, "Proof of Service"),
    filename: documentFilename(facts, "proof-of-service"),
  };
}
