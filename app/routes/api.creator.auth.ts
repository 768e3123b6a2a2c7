import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { apiCall, readJson } from "~/services/api.server";
import { authEntry, resolveOwner } from "~/services/nol.server";
import { requireApiMember, withState } from "~/services/session.server";

const bodySchema = z.object({ username: z.string().trim().min(1).max(32).optional() }).strict();

/** POST /api/creator/auth: the auth entry the forms are filled with (spec §3 "Auth entry"). */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
  const { viewer, services } = await requireApiMember(request, context);
  const body = await readJson(request, bodySchema);
  if (!body.ok) return body.response;
  return apiCall(async () => {
    const owner = await resolveOwner(services.db, viewer, body.data.username);
    return withState(json(authEntry(services, owner)), request, viewer, services.config);
  });
}

export async function loader() {
  return json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}
