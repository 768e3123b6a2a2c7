import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirectDocument } from "@remix-run/node";
import { archiveTokenSchema } from "~/lib/schemas.server";
import { notFoundPage } from "~/lib/http.server";
import {
  isRefusal,
  openArchiveLink,
  openOwnArchive,
  refusalWords,
  type ArchiveDownload,
} from "~/services/member-data/archive-download.server";
import { readForm } from "~/lib/submission.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireMember } from "~/services/session.server";

/**
 * The member's data archive as a file, once (decision 050):
 * - GET ?link={code}: the e-mailed link's file; when it gives none, its page says why (/profile/data/{code}).
 * - POST archive={id}: the profile's "Download your data", for the member signed in as themselves;
 *   when it gives none, the profile says why.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const token = archiveTokenSchema.safeParse(new URL(request.url).searchParams.get("link"));
  if (!token.success) notFoundPage();
  const answer = await openArchiveLink(services, viewer, token.data);
  return isRefusal(answer) ? redirectDocument(`/profile/data/${token.data}`, 303) : fileResponse(answer);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const form = await readForm(request);
  const answer = await openOwnArchive(services, viewer, String(form.get("archive") ?? ""));
  if (!isRefusal(answer)) return fileResponse(answer);
  const { why, todo } = refusalWords(answer);
  return redirectWithFlash("/profile", { kind: "error", message: `${why} ${todo}` }, services.config);
}

function fileResponse(archive: ArchiveDownload): Response {
  // X-Content-Type-Options comes with every answer (security-headers.server.ts).
  return new Response(archive.body, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${archive.fileName}"`,
      ...(archive.bytes !== null ? { "Content-Length": String(archive.bytes) } : {}),
      "Cache-Control": "no-store",
    },
  });
}
