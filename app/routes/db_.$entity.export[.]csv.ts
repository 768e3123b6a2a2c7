import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { audit, actorOf } from "~/services/audit.server";
import { entityCsv, entityOf, entityQuery } from "~/services/data-browser.server";
import { requireStepUpForLink } from "~/services/factors/step-up.server";
import { requireAdmin } from "~/services/session.server";

/** GET /db/{entity}/export.csv?{the list's filters}: the whole filtered list as CSV, streamed; audited. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  await requireStepUpForLink(request, viewer, "export");
  // Only the data browser's own entity names are listed; anything else is a missing page.
  const parsed = z
    .string()
    .max(40)
    .safeParse(params.entity ?? "");
  if (!parsed.success) notFoundPage();
  const name = parsed.data;
  const { query } = await withPageErrors(async () => entityQuery(entityOf(name), new URL(request.url).searchParams));
  await audit(services.db, actorOf(viewer), "records.export", name, null, { filters: query.filters });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(entityCsv(services.db, name, query), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
