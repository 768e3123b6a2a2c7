import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { editorsOf } from "~/services/nol/editors.server";
import { requireApiMember, withState } from "~/services/session.server";
import { readOnly } from "~/lib/json-body.server";

/** GET /api/entry/nol-editors: who edits the member's notices, and whose notices the member edits. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireApiMember(request, context);
  const result = await editorsOf(services.db, viewer.member.id);
  return withState(json(result, { headers: { "Cache-Control": "no-store" } }), request, viewer, services.config);
}

export const action = readOnly;
