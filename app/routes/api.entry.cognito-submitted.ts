import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { withApiErrors } from "~/lib/http.server";
import { postOnly, readJson } from "~/lib/json-body.server";
import { pendingBodySchema, submitPending } from "~/services/nol/pending.server";
import { requireApiMember, withState } from "~/services/session.server";

/** POST /api/entry/cognito-submitted: a form was sent; its entry is pending (spec §3, §4). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly();
  const { viewer, services } = await requireApiMember(request, context);
  const body = await readJson(request, pendingBodySchema);
  return withApiErrors(async () => {
    const pending = await submitPending(services, viewer, body);
    return withState(json({ pending: { id: pending.id } }, { status: 201 }), request, viewer, services.config);
  });
}

export const loader = postOnly;
