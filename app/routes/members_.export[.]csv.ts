import type { LoaderFunctionArgs } from "@remix-run/node";
import { memberCsv, memberListQuery } from "~/services/member-listing.server";
import { audit, actorOf } from "~/services/audit.server";
import { requireStepUpForLink } from "~/services/factors/step-up.server";
import { requireAdmin } from "~/services/session.server";

/**
 * GET /members/export.csv?{the list's filters}: every member the filter matches, as CSV,
 * streamed in batches. Audited: an export is a read of many members' personal data.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  await requireStepUpForLink(request, viewer, "export");
  const { query } = memberListQuery(new URL(request.url).searchParams);
  await audit(services.db, actorOf(viewer), "members.export", "user", null, { filters: query.filters });
  const day = new Date().toISOString().slice(0, 10);
  return new Response(memberCsv(services, query), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="members-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
