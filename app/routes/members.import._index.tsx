import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ImportStart } from "~/components/admin/member-import";
import { isDomainError } from "~/domain/errors";
import { receiveImport } from "~/services/member-import/upload.server";
import { IMPORT_MAX_BYTES, IMPORT_MAX_MB, IMPORT_TOO_LARGE, recentImports } from "~/services/member-import/view.server";
import { requireStepUpForLink } from "~/services/factors/step-up.server";
import { requireAdmin } from "~/services/session.server";

export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Import members" }];

/** /members/import: the upload form and the imports so far. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  await requireStepUpForLink(request, viewer, "import");
  return json(
    {
      imports: await recentImports(services),
      limit: { mb: IMPORT_MAX_MB, bytes: IMPORT_MAX_BYTES, tooLarge: IMPORT_TOO_LARGE },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * POST /members/import (multipart): a CSV file, checked at once (the dry run); its report is
 * the import's own page. A file that cannot be imported comes back with why, and leaves nothing.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  // The file cannot be posted again with the factor: a stale factor is passed on its own page first.
  await requireStepUpForLink(request, viewer, "import");
  try {
    const { importId } = await receiveImport(services, viewer, request);
    return redirect(`/members/import/${importId}`);
  } catch (error) {
    if (isDomainError(error) && error.status < 500) return json({ error: error.message }, { status: error.status });
    throw error;
  }
}

export default function ImportMembers() {
  const { imports, limit } = useLoaderData<typeof loader>();
  const error = useActionData<typeof action>()?.error ?? null;
  return <ImportStart imports={imports} limit={limit} error={error} />;
}
