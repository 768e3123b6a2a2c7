import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { backupIdSchema } from "~/domain/backups";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { backupDownload } from "~/services/backups/backups.server";
import { requireStepUpForLink } from "~/services/factors/step-up.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireAdmin } from "~/services/session.server";

/**
 * GET /admin/backups/{id}/download: the backup's file, streamed from this server's BACKUP_DIR or
 * from the store, for admins (each download
 * audited) whose second factor is fresh, as for a members CSV: the file is every member's data.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  await requireStepUpForLink(request, viewer, "backup");
  const id = backupIdSchema.safeParse(params.backupId);
  if (!id.success) notFoundPage();
  const download = await withPageErrors(() => backupDownload(services, viewer, id.data));
  if (!download.found)
    return redirectWithFlash("/admin/backups", { kind: "error", message: download.message }, services.config);
  const body = await withPageErrors(download.body);
  return new Response(createReadableStreamFromReadable(body), {
    headers: {
      "Content-Type": "application/octet-stream",
      "Content-Disposition": `attachment; filename="${download.fileName}"`,
      ...(download.bytes !== null ? { "Content-Length": String(download.bytes) } : {}),
      ...(download.sha256 ? { "X-Checksum-Sha256": download.sha256 } : {}),
      "Cache-Control": "no-store",
    },
  });
}
