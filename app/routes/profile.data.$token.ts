import type { LoaderFunctionArgs } from "@remix-run/node";
import { archiveTokenSchema } from "~/lib/schemas.server";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { openArchive } from "~/services/member-data/archive.server";
import { requireMember } from "~/services/session.server";

/**
 * GET /profile/data/{code}: the e-mailed link to a member's data archive. It works once, for the
 * member signed in as themselves; anyone else (signed out: after signing in) gets a 404.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const token = archiveTokenSchema.safeParse(params.token);
  if (!token.success) notFoundPage();
  const archive = await withPageErrors(() => openArchive(services, viewer, token.data));
  return new Response(archive.body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${archive.fileName}"`,
      ...(archive.bytes !== null ? { "Content-Length": String(archive.bytes) } : {}),
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
