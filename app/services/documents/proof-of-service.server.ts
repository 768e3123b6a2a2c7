import { and, eq, inArray } from "drizzle-orm";
import type { AppServices } from "~/context";
import { claims, mailings, respondents } from "~/db/schema";
import { documentFilename, type DocumentFacts, type ServiceLine } from "~/domain/documents/document-data";
import { notFound } from "~/domain/errors";
import { postalLines } from "~/domain/mailing/address";
import { dayOfDate } from "~/domain/mailing/round-letters";
import { addressLine, slotsOpenIn } from "~/domain/nol/billing";
import { NOTICE_ROUNDS } from "~/domain/nol/rounds";
import type { UserRow, Viewer } from "../session.server";
import { billedSlotsOf, versionState, type EntryRow, type VersionState } from "../nol/entries.server";
import { causeOf, type PageAddress } from "../nol/pages.server";
import { keptTracking, roundRecordsOf } from "../nol/timeline.server";
import { renderDocument } from "./render.server";
import { templateInUse } from "./templates.server";
import { versionClaim } from "../version-keys.server";

/**
 * A round's proof of service (decision 035): each respondent it was mailed to, with the address
 * used, the mailing day, the envelope's tracking number and the delivery, through the
 * admin-editable "proof of service" template of the cause and round.
 */

/** The round's entry that keeps the tracking numbers: the creator entry for a notice, the true bill's own. */
function roundEntry(state: VersionState, round: number): EntryRow | null {
  if (round <= NOTICE_ROUNDS) return state.creator;
  return state.bills.find((bill) => bill.tbValue === round - NOTICE_ROUNDS) ?? null;
}

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
  const record = roundRecordsOf(state).find((r) => r.round === input.round);
  const entry = roundEntry(state, input.round);
  if (!record?.mailedOn || !entry || !state.creator) throw notFound("This round has not been mailed yet");

  const named = await db
    .select({ slot: respondents.slot, name: respondents.name, type: respondents.type, address: respondents.address })
    .from(respondents)
    .where(eq(respondents.entryId, state.creator.id));
  const billed = input.round > NOTICE_ROUNDS ? billedSlotsOf(entry) : null;
  const served = named.filter((r) =>
    input.round > NOTICE_ROUNDS ? !billed || billed.includes(r.slot) : r.slot <= slotsOpenIn(input.round),
  );
  const numbers = keptTracking(entry, input.round);
  // A round mailed with one number for all (before each envelope had its own) gives it to each.
  const single = Object.keys(numbers).length === 0 ? (record.tracking[0] ?? null) : null;
  const letters = new Map(
    (
      await db
        .select()
        .from(mailings)
        .where(
          and(
            eq(mailings.entryId, entry.id),
            eq(mailings.round, input.round),
            inArray(mailings.state, ["mailed", "in_transit", "delivered", "returned_to_sender"]),
          ),
        )
    ).map((row) => [row.slot, row]),
  );
  const service: ServiceLine[] = served.map((r) => {
    const letter = letters.get(r.slot);
    return {
      slot: r.slot,
      name: r.name,
      type: r.type,
      address: addressLine(r.address),
      tracking: letter?.trackingNumber ?? numbers[String(r.slot)] ?? single,
      letter: letter
        ? {
            address: postalLines(letter.toAddress).slice(1).join(", "),
            deliveredOn: letter.deliveredAt ? dayOfDate(letter.deliveredAt) : null,
            returnedOn: letter.returnedAt ? dayOfDate(letter.returnedAt) : null,
            returnReceipt: letter.returnReceiptAt !== null,
          }
        : null,
    };
  });

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
    respondents: served,
    dailyAmountCents: null,
    mailing: {
      date: record.mailedOn,
      tracking: record.tracking[0] ?? null,
      delivered: record.delivered,
      deliveredOn: record.deliveredOn,
    },
    bill: null,
    service,
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
