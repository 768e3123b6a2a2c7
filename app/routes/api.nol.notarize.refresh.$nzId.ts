import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { withApiErrors } from "~/lib/http.server";
import { postOnly } from "~/lib/json-body.server";
import { nzIdParam, refreshNotarization } from "~/services/notary/notarize.server";
import { requireApiMember, withState } from "~/services/session.server";

/** POST /api/nol/notarize/refresh/{nz_id} (spec §7): the status from the provider → `{ error, deleted, upd }`. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly();
  const { viewer, services } = await requireApiMember(request, context);
  return withApiErrors(async () => {
    const result = await refreshNotarization(services, viewer, nzIdParam(params.nzId));
    return withState(json(result, { headers: { "Cache-Control": "no-store" } }), request, viewer, services.config);
  });
}

export const loader = () => postOnly();
