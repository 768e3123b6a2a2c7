import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { noticeIdsQuerySchema, noticeIdsSchema } from "~/domain/documents/notice-ids";
import { withApiErrors } from "~/lib/http.server";
import { parseWith, postOnly, readJson } from "~/lib/json-body.server";
import { pdfResponse } from "~/lib/pdf-response.server";
import { previewNotice } from "~/services/documents/render.server";
import { requireApiMember, withState } from "~/services/session.server";

/** POST /api/nol/preview (spec §7): the current NoL's document, `{ cf_number, cf_version, round_cnt }` → PDF. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly();
  const { viewer, services } = await requireApiMember(request, context);
  const ids = await readJson(request, noticeIdsSchema);
  return withApiErrors(async () =>
    withState(pdfResponse(await previewNotice(services, viewer, ids)), request, viewer, services.config),
  );
}

/**
 * GET /api/nol/preview?cf_number=&cf_version=&round_cnt=[&download=1]: the same document at an
 * address a page can frame or link to (previewHref).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireApiMember(request, context);
  return withApiErrors(async () => {
    const { download, ...ids } = parseWith(
      noticeIdsQuerySchema,
      Object.fromEntries(new URL(request.url).searchParams),
      "Invalid query",
    );
    const document = await previewNotice(services, viewer, ids);
    return withState(pdfResponse(document, { download: download === "1" }), request, viewer, services.config);
  });
}
