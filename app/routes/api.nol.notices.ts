import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod";
import { invalid } from "~/domain/errors";
import { withApiErrors } from "~/lib/http.server";
import { readOnly } from "~/lib/json-body.server";
import { noticesFor } from "~/services/documents/notices.server";
import { requireApiMember, withState } from "~/services/session.server";

const querySchema = z.object({ cause_code: z.string().trim().min(1, "Name a cause code").max(40) });

/** GET /api/nol/notices?cause_code= (spec §7): the member's notices of the cause. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireApiMember(request, context);
  return withApiErrors(async () => {
    const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!query.success) throw invalid("Invalid query", query.error.flatten().fieldErrors);
    const result = await noticesFor(services, viewer, query.data.cause_code);
    return withState(json(result, { headers: { "Cache-Control": "no-store" } }), request, viewer, services.config);
  });
}

export const action = readOnly;
