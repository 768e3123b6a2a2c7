import type { LoaderFunctionArgs } from "@remix-run/node";
import { withPageErrors } from "~/lib/http.server";
import { pdfResponse } from "~/lib/pdf-response.server";
import { roundQuerySchema } from "~/lib/schemas.server";
import { roundNotice } from "~/services/documents/round-notice.server";
import { nolAddress } from "~/services/nol/page-address.server";
import { requireMember } from "~/services/session.server";

/** GET /nol/{form}/{cause}/notice.pdf?version=…&round=…: a written round's notice, one letter per respondent, to save. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address, query } = nolAddress(request, params);
  const round = roundQuerySchema.safeParse(new URL(request.url).searchParams.get("round"));
  if (!round.success || !query.version)
    return new Response("Name the version and the round (version=…&round=1 to 200)", { status: 400 });
  const document = await withPageErrors(() =>
    roundNotice(services, viewer, address, { cause: params.cause ?? "", version: query.version!, round: round.data }),
  );
  return pdfResponse(document, { download: true });
}
