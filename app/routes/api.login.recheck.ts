import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { unauthorized } from "~/domain/errors";
import { withApiErrors } from "~/lib/http.server";
import { recheckSession, requireApiViewer, sessionState, withState } from "~/services/session.server";
import { readOnly } from "~/lib/json-body.server";

/** GET /api/login/recheck: re-reads the member and the subscription and answers with the fresh state. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireApiViewer(request, context);
  return withApiErrors(async () => {
    const fresh = await recheckSession(services.db, viewer.session.id, services.config.pastDueGraceDays);
    if (!fresh) throw unauthorized("The session has ended");
    const response = json(
      { state: sessionState(fresh, services.config) },
      { headers: { "Cache-Control": "no-store" } },
    );
    return withState(response, request, fresh, services.config);
  });
}

export const action = readOnly;
