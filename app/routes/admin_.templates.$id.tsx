import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { TemplateEditor } from "~/components/documents/template-editor";
import { lastResultOf } from "~/components/forms/fields";
import { templateBodySchema, templateIdOf } from "~/lib/schemas.server";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { parseSubmission, replyWith } from "~/lib/submission.server";
import { saveTemplateVersion, templateById, templateEditor } from "~/services/documents/templates.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireAdmin } from "~/services/session.server";
import { requireStepUp } from "~/services/factors/step-up.server";

export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Document template" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const id = templateIdOf(params.id) ?? notFoundPage();
  return withPageErrors(async () => json(await templateEditor(services.db, id)));
}

/** Saves the text as the next version of the template's scope. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const id = templateIdOf(params.id) ?? notFoundPage();
  const base = await withPageErrors(() => templateById(services.db, id));
  const { form, submission } = await parseSubmission(request, templateBodySchema(base.kind));
  await requireStepUp(services, viewer, "template-change", request, form);
  if (submission.status !== "success") return replyWith(submission);
  const saved = await saveTemplateVersion(services, viewer, id, submission.value.body);
  return redirectWithFlash(
    `/admin/templates/${saved.id}`,
    { kind: "success", message: `Saved as version ${saved.version}: new documents use it.` },
    services.config,
  );
}

export default function Template() {
  const data = useLoaderData<typeof loader>();
  return <TemplateEditor {...data} lastResult={lastResultOf(useActionData<typeof action>())} />;
}

/** A step-up prompt in the place of the page when a sensitive action asks for a fresh second factor. */
export { StepUpBoundary as ErrorBoundary } from "~/components/factors/step-up-card";
