import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { withApiErrors } from "~/lib/http.server";
import { readJson } from "~/lib/json-body.server";
import {
  deleteNotarization,
  nzIdParam,
  updateNotarization,
  updateNotarizeSchema,
} from "~/services/notary/notarize.server";
import { requireApiMember, withState } from "~/services/session.server";

const putOrDelete = () => json({ error: "Use PUT or DELETE" }, { status: 405, headers: { Allow: "PUT, DELETE" } });

/**
 * PUT /api/nol/notarize/{nz_id} (spec §7): `{ send? }` sends the draft → `{ deleted, updated, upd }`.
 * DELETE /api/nol/notarize/{nz_id}: deletes it at the provider and the notice's notarize.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  if (request.method !== "PUT" && request.method !== "DELETE") return putOrDelete();
  const { viewer, services } = await requireApiMember(request, context);
  const body = request.method === "PUT" ? await readJson(request, updateNotarizeSchema) : null;
  return withApiErrors(async () => {
    const nzId = nzIdParam(params.nzId);
    const result = body
      ? await updateNotarization(services, viewer, nzId, body)
      : await deleteNotarization(services, viewer, nzId);
    return withState(json(result, { headers: { "Cache-Control": "no-store" } }), request, viewer, services.config);
  });
}

export const loader = () => putOrDelete();
