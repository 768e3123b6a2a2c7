import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { sessions } from "~/db/schema";
import { loadViewer, requireApiViewer, sessionState, withState } from "~/services/session.server";

/**
 * GET /api/login/recheck: re-reads the member and the subscription and answers with the
 * fresh state. Concurrent rechecks of one session all see one update.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireApiViewer(request, context);
  const now = new Date();
  await services.db
    .update(sessions)
    .set({ loginCheckedAt: now, subCheckedAt: now, lastSeenAt: now })
    .where(eq(sessions.id, viewer.session.id));
  const fresh = await loadViewer(services.db, viewer.session.id);
  if (!fresh) return json({ error: "The session has ended" }, { status: 401 });
  const response = json({ state: sessionState(fresh, services.config) }, { headers: { "Cache-Control": "no-store" } });
  return withState(response, request, fresh, services.config);
}
