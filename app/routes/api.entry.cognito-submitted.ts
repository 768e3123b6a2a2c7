import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { apiCall, causeExists, readJson, unknownCause } from "~/services/api.server";
import { causeOpenTo } from "~/services/nol-pages.server";
import { ownsEntry, pendingBodySchema, recordPending, resolveOwner } from "~/services/nol.server";
import { requireApiMember, withState } from "~/services/session.server";

/** POST /api/entry/cognito-submitted: a form was sent; its entry is pending (spec §3, §4). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
  const { viewer, services } = await requireApiMember(request, context);
  const body = await readJson(request, pendingBodySchema);
  if (!body.ok) return body.response;
  return apiCall(async () => {
    const owner = await resolveOwner(services.db, viewer, body.data.username);
    if (!(await causeExists(services.db, body.data.cause))) return unknownCause();
    if (!(await causeOpenTo(services, owner, body.data.cause))) {
      return json({ error: "This cause is not open to this member" }, { status: 403 });
    }
    if (body.data.entry_id && !(await ownsEntry(services.db, owner.id, body.data.entry_id))) {
      return json({ error: "That entry is not one of this member's" }, { status: 403 });
    }
    const pending = await recordPending(services, viewer, owner, body.data);
    return withState(json({ pending: { id: pending.id } }, { status: 201 }), request, viewer, services.config);
  });
}

export async function loader() {
  return json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}
