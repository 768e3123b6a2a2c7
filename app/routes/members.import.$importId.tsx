import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ImportReport } from "~/components/admin/member-import";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { importIdSchema, importIntentSchema, importPageQuerySchema } from "~/lib/schemas.server";
import { readForm } from "~/lib/submission.server";
import { discardImport, startImport } from "~/services/member-import/run.server";
import { importPage } from "~/services/member-import/view.server";
import { requireAdmin } from "~/services/session.server";
import { requireStepUp } from "~/services/factors/step-up.server";
import { isDomainError } from "~/domain/errors";

export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Import members" }];

function importIdOf(params: { importId?: string }): string {
  const id = importIdSchema.safeParse(params.importId);
  return id.success ? id.data : notFoundPage();
}

/** /members/import/{id}?view&after: the dry run's report, then the import's progress and result. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const id = importIdOf(params);
  const query = importPageQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const page = await withPageErrors(() => importPage(services, id, query.view, query.after));
  return json({ page }, { headers: { "Cache-Control": "no-store" } });
}

/** POST /members/import/{id}: start the checked import (a background job), or discard it. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const id = importIdOf(params);
  const form = await readForm(request);
  const intent = importIntentSchema.safeParse(Object.fromEntries(form));
  if (!intent.success) return json({ error: intent.error.issues[0]!.message }, { status: 400 });
  try {
    if (intent.data.intent === "discard") {
      await discardImport(services, id);
      return redirect("/members/import");
    }
    await requireStepUp(services, viewer, "import", request, form);
    await startImport(services, viewer, id);
    return redirect(`/members/import/${id}`);
  } catch (error) {
    if (isDomainError(error) && error.status < 500) return json({ error: error.message }, { status: error.status });
    throw error;
  }
}

export default function MemberImport() {
  const { page } = useLoaderData<typeof loader>();
  return <ImportReport page={page} message={useActionData<typeof action>()?.error ?? null} />;
}

/** A step-up prompt in the place of the page when a sensitive action asks for a fresh second factor. */
export { StepUpBoundary as ErrorBoundary } from "~/components/factors/step-up-card";
