import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { withApiErrors } from "~/lib/http.server";
import { postOnly, readJson } from "~/lib/json-body.server";
import { notarize, notarizeSchema } from "~/services/notary/notarize.server";
import { requireApiMember, withState } from "~/services/session.server";

/**
 * POST /api/nol/notarize (spec §7): `{ cf_number, cf_version, round_cnt, draft? }` → the notice
 * with its notarize; `{ error }` (500) when no notarize results; 503 while the notary is down.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly();
  const { viewer, services } = await requireApiMember(request, context);
  const body = await readJson(request, notarizeSchema);
  return withApiErrors(async () => {
    const result = await notarize(services, viewer, body);
    const status = "error" in result ? 500 : 200;
    return withState(
      json(result, { status, headers: { "Cache-Control": "no-store" } }),
      request,
      viewer,
      services.config,
    );
  });
}

export const loader = () => postOnly();
