import type { LoaderFunctionArgs } from "@remix-run/node";
import { notFoundPage } from "~/lib/http.server";
import { readOnly } from "~/lib/json-body.server";
import { appServices } from "~/services/app.server";
import { signerDocument } from "~/services/notary/signer-page.server";

/** The PDF on the sandbox signer page: the document to sign, then the notarized one. */
export async function loader({ params, context }: LoaderFunctionArgs) {
  const document = await signerDocument(await appServices(context), params.transactionId ?? "");
  if (!document) notFoundPage();
  // A quoted file name keeps only characters that cannot end or break the header.
  const fileName = document.fileName.replace(/[^\w .()-]/g, "_");
  return new Response(new Uint8Array(document.pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `inline; filename="${fileName}"`,
      "Content-Length": String(document.pdf.byteLength),
      "Cache-Control": "private, no-store",
    },
  });
}

export const action = readOnly;
