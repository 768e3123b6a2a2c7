import { roundNotice } from "~/services/documents/round-notice.server";
import { roundDocumentLoader } from "~/services/documents/round-document-route.server";

/** GET /nol/{form}/{cause}/notice.pdf?version=…&round=…: a written round's notice, one letter per respondent, to save. */
export const loader = roundDocumentLoader(roundNotice, { download: true });
