import type { LoaderFunctionArgs } from "@remix-run/node";
import { withApiErrors } from "~/lib/http.server";
import { readOnly } from "~/lib/json-body.server";
import { pdfResponse } from "~/lib/pdf-response.server";
import { notarizedDocument, nzIdParam } from "~/services/notary/notarize.server";
import { requireApiMember, withState } from "~/services/session.server";

/** GET /api/nol/notarize/{nz_id}/document: the member's notarized PDF once the notary is done (404 before). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { viewer, services } = await requireApiMember(request, context);
  return withApiErrors(async () => {
    const document = await notarizedDocument(services, viewer, nzIdParam(params.nzId));
    return withState(pdfResponse(document, { download: true }), request, viewer, services.config);
  });
}

export const action = readOnly;
