import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import type { AppServices } from "~/context";
import { nolEntries } from "~/db/schema";
import { letterPagesSchema, notarizedLetterPages } from "~/domain/documents/notarized-letters";
import { notFound } from "~/domain/errors";
import { isProviderError } from "~/providers/errors";
import { findNotice, type NoticeRecord } from "../documents/notices.server";
import { renderRespondentLetterPdf } from "../documents/render.server";
import { latestSignature } from "../documents/signatures.server";
import type { MailingRow } from "./records.server";

/**
 * The letter's PDF: the round's notice to this respondent, cut from the notice's notarized PDF
 * while that is the notice as it stands, else as the documents service makes it.
 */
export async function letterPdf(services: AppServices, row: MailingRow): Promise<Uint8Array> {
  const [entry] = await services.db
    .select({ entryNumber: nolEntries.entryNumber })
    .from(nolEntries)
    .where(eq(nolEntries.id, row.entryId));
  const record = entry
    ? await findNotice(
        services.db,
        { id: row.userId },
        { cf_number: entry.entryNumber, cf_version: row.descriptiveVersion, round_cnt: row.round },
      )
    : null;
  if (!record) throw notFound("This round has not been written yet");
  return (await notarizedLetter(services, record, row)) ?? renderRespondentLetterPdf(services, record, row.slot);
}

/**
 * The respondent's letter as the notary notarized it: its pages of the notice's notarized PDF,
 * then the notary's own pages, so the letter mailed on its own carries the notary's mark on
 * every page (docs/decisions/059-notarized-letters.md). Null, and the letter is rendered as it
 * stands, when there is no such copy to cut it from: the notice is not notarized (or not at the
 * notary in use), the notary no longer has the PDF, the member signed the notice after it went
 * to the notary, or the PDF's pages are not those of the letters counted when it was sent.
 * While the notary cannot be reached the letter waits (the mail house is not asked).
 */
async function notarizedLetter(
  services: AppServices,
  { notarization }: NoticeRecord,
  row: MailingRow,
): Promise<Uint8Array | null> {
  const notary = services.providers.notary;
  if (!notarization?.nzId || notarization.nzStatus !== "completed" || notarization.provider !== notary.name)
    return null;
  const letters = letterPagesSchema.safeParse(notarization.letterPages);
  if (!letters.success) return null;
  const signature = await latestSignature(services.db, row.entryId, row.round);
  if (signature && !(notarization.nzCreated && signature.createdAt < notarization.nzCreated)) return null;
  const nzId = notarization.nzId;
  const pdf = await notary.notarizedDocument(nzId).catch((error: unknown) => {
    if (isProviderError(error, "notary_refused")) return null;
    throw error;
  });
  if (!pdf) return null;
  const notarized = await PDFDocument.load(pdf, { updateMetadata: false }).catch(() => null);
  const pages = notarized && notarizedLetterPages(letters.data, notarized.getPageCount(), row.slot);
  if (!notarized || !pages) {
    services.logger.warn(
      { mailing: row.id, nzId },
      "the notarized notice does not match its letters: mailed as rendered",
    );
    return null;
  }
  const letter = await PDFDocument.create();
  for (const page of await letter.copyPages(notarized, pages)) letter.addPage(page);
  const title = notarized.getTitle();
  if (title) letter.setTitle(title);
  return letter.save();
}
