import type { LoaderFunctionArgs } from "@remix-run/node";
import { withPageErrors } from "~/lib/http.server";
import { pdfResponse } from "~/lib/pdf-response.server";
import { returnReceiptOf } from "~/services/mailings/receipts.server";
import { resolveOwner } from "~/services/nol/access.server";
import { nolAddress } from "~/services/nol/page-address.server";
import { requireMember } from "~/services/session.server";

/**
 * GET /nol/{form}/{cause}/return-receipt.pdf?letter=…: the electronic return receipt of one of
 * the member's letters (or, for an editor or an admin, of the named member's).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address } = nolAddress(request, params);
  const letter = new URL(request.url).searchParams.get("letter") ?? "";
  const receipt = await withPageErrors(async () =>
    returnReceiptOf(services, await resolveOwner(services.db, viewer, address.username), letter),
  );
  return pdfResponse({ bytes: receipt.pdf, filename: receipt.filename }, { download: true });
}
