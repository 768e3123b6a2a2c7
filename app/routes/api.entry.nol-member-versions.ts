import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { invalid } from "~/domain/errors";
import { withApiErrors } from "~/lib/http.server";
import { memberVersionsFor } from "~/services/nol/member-versions.server";
import { requireApiMember, withState } from "~/services/session.server";
import { readOnly } from "~/lib/json-body.server";

const querySchema = z.object({
  cause: z.string().trim().min(1).max(40).optional(),
  username: z.string().trim().min(1).max(32).optional(),
  id: z.string().trim().min(1).max(40).optional(),
});

/** GET /api/entry/nol-member-versions?cause=&username=&id= (spec §7). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireApiMember(request, context);
  return withApiErrors(async () => {
    const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) throw invalid("Invalid query", query.error.flatten().fieldErrors);
    const result = await memberVersionsFor(services, viewer, query.data);
    return withState(json(result, { headers: { "Cache-Control": "no-store" } }), request, viewer, services.config);
  });
}

export const action = readOnly;
