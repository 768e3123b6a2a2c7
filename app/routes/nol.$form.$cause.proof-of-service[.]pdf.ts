import { proofOfService } from "~/services/documents/proof-of-service.server";
import { roundDocumentLoader } from "~/services/documents/round-document-route.server";

/** GET /nol/{form}/{cause}/proof-of-service.pdf?version=…&round=…: a mailed round's proof of service. */
export const loader = roundDocumentLoader(proofOfService);
