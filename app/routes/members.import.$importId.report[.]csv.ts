import type { LoaderFunctionArgs } from "@remix-run/node";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { importIdSchema } from "~/lib/schemas.server";
import { importFileName, importReport } from "~/services/member-import/view.server";
import { requireAdmin } from "~/services/session.server";

/** GET /members/import/{id}/report.csv: every row of the file, what the dry run found and what the import did. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const id = importIdSchema.safeParse(params.importId);
  if (!id.success) notFoundPage();
  const fileName = await withPageErrors(() => importFileName(services, id.data));
  const base =
    fileName
      .replace(/\.csv$/i, "")
      .replace(/[^\w.-]+/g, "-")
      .slice(0, 80) || "members";
  return new Response(importReport(services, id.data), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${base}-import-report.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
