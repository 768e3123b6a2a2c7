import type { AppServices } from "~/context";
import { notFound } from "~/domain/errors";
import { noticeRoundsOf } from "~/domain/documents/records";
import { NOTICE_ROUNDS } from "~/domain/nol/rounds";
import type { Viewer } from "../session.server";
import { versionState } from "../nol/entries.server";
import { causeOf, type PageAddress } from "../nol/pages.server";
import { findNotice } from "./notices.server";
import { renderNoticePdf, type RenderedDocument } from "./render.server";

/**
 * A written round's notice (or true bill) as its version's pages offer it: the same document
 * as the profile's and the notarize page's, named by version and round, for the owner of the
 * notices and those who may see them (an editor, an admin).
 */
export async function roundNotice(
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: { cause: string; version: string; round: number },
): Promise<RenderedDocument> {
  const place = await causeOf(services, viewer, address, input.cause);
  if (!place.rows.some((row) => row.descriptiveVersion === input.version))
    throw notFound("This version has no notices yet");
  const state = versionState(place.rows, input.version);
  const entry =
    input.round <= NOTICE_ROUNDS
      ? state.creator
      : (state.bills.find((bill) => bill.tbValue === input.round - NOTICE_ROUNDS) ?? null);
  if (!entry || !noticeRoundsOf(entry).includes(input.round)) throw notFound("This round has not been written yet");
  const record = await findNotice(services.db, place.owner, {
    cf_number: entry.entryNumber,
    cf_version: input.version,
    round_cnt: input.round,
  });
  if (!record) throw notFound("This round has not been written yet");
  return renderNoticePdf(services, record);
}
