import type { LoaderFunctionArgs } from "@remix-run/node";
import { withPageErrors } from "~/lib/http.server";
import { nolAddress } from "~/services/nol/page-address.server";
import { versionCalendarFile } from "~/services/nol/timeline-calendar.server";
import { requireMember } from "~/services/session.server";

/** GET /nol/{form}/{cause}/calendar.ics?version=: a version's windows and next-round days as a calendar file. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address, query } = nolAddress(request, params);
  const file = await withPageErrors(() =>
    versionCalendarFile(services, viewer, address, { cause: params.cause ?? "", version: query.version }),
  );
  return new Response(file.body, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.name}"`,
      "Cache-Control": "no-store",
    },
  });
}
