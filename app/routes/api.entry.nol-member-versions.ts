import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { apiCall, causeExists, unknownCause } from "~/services/api.server";
import { memberVersions, resolveOwner } from "~/services/nol.server";
import { requireApiMember, withState } from "~/services/session.server";

const querySchema = z.object({
  cause: z.string().trim().min(1).max(40).optional(),
  username: z.string().trim().min(1).max(32).optional(),
  id: z.string().trim().min(1).max(40).optional(),
});

/** GET /api/entry/nol-member-versions?cause=&username=&id= (spec §7). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireApiMember(request, context);
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success)
    return json({ error: "Invalid query", fieldErrors: parsed.error.flatten().fieldErrors }, { status: 400 });
  const { cause, username, id } = parsed.data;
  return apiCall(async () => {
    if (cause && !(await causeExists(services.db, cause))) return unknownCause();
    const owner = await resolveOwner(services.db, viewer, username);
    const result = await memberVersions(services, owner, { cause: cause ?? null, id: id ?? null });
    return withState(json(result, { headers: { "Cache-Control": "no-store" } }), request, viewer, services.config);
  });
}
