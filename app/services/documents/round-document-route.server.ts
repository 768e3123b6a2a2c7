import type { LoaderFunctionArgs } from "@remix-run/node";
import type { AppServices } from "~/context";
import { withPageErrors } from "~/lib/http.server";
import { pdfResponse } from "~/lib/pdf-response.server";
import { roundQuerySchema } from "~/lib/schemas.server";
import { nolAddress } from "~/services/nol/page-address.server";
import type { PageAddress } from "~/services/nol/pages.server";
import { requireMember, type Viewer } from "~/services/session.server";

type RoundDocument = (
  services: AppServices,
  viewer: Viewer,
  address: PageAddress,
  input: { cause: string; version: string; round: number },
) => Promise<{ bytes: Uint8Array; filename: string }>;

/**
 * The loader of a round's PDF at /nol/{form}/{cause}/…pdf?version=…&round=…: the member's own
 * (or, for an editor, the named member's), a 400 without a version and a round.
 */
export function roundDocumentLoader(make: RoundDocument, options: { download?: boolean } = {}) {
  return async ({ request, params, context }: LoaderFunctionArgs) => {
    const { viewer, services } = await requireMember(request, context);
    const { address, query } = nolAddress(request, params);
    const round = roundQuerySchema.safeParse(new URL(request.url).searchParams.get("round"));
    if (!round.success || !query.version)
      return new Response("Name the version and the round (version=…&round=1 to 200)", { status: 400 });
    const version = query.version;
    const document = await withPageErrors(() =>
      make(services, viewer, address, { cause: params.cause ?? "", version, round: round.data }),
    );
    return pdfResponse(document, options);
  };
}
