import { PDFDocument } from "pdf-lib";
import type { AppServices } from "~/context";
import { documentPages, type LetterPages } from "~/domain/documents/notarized-letters";
import type { NoticeRecord } from "../documents/notices.server";
import { noticeLetterPages } from "../documents/render.server";

/**
 * The letters of the notice's document as sent, with their pages; null (its letters are then
 * mailed as rendered when mailed) when they do not add up to the document sent.
 */
export async function lettersOf(
  services: AppServices,
  record: NoticeRecord,
  sent: Uint8Array,
): Promise<LetterPages | null> {
  const letters = await noticeLetterPages(services, record);
  const pages = (await PDFDocument.load(sent, { updateMetadata: false })).getPageCount();
  if (documentPages(letters) === pages) return letters;
  services.logger.warn(
    { noticeId: record.notice.id, pages, letters: documentPages(letters) },
    "the notice's letters do not add up to its document",
  );
  return null;
}
