import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { TemplateList } from "~/components/documents/template-list";
import { disclaimerSchema, newTemplateSchema } from "~/lib/schemas.server";
import { readForm, replyWith, submissionOf, withFormErrors } from "~/lib/submission.server";
import { createTemplateScope, saveDocumentDisclaimer, templatesOverview } from "~/services/documents/templates.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireAdmin } from "~/services/session.server";
import { requireStepUp } from "~/services/factors/step-up.server";

// admin_: its own page at /admin/templates, not a part drawn inside the /admin page.
export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Document templates" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  return json(await templatesOverview(services.db));
}

/** A template for a scope of its own (`intent=create`), or the "not legal advice" notice (`intent=disclaimer`). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const form = await readForm(request);
  await requireStepUp(services, viewer, "template-change", request, form);
  if (form.get("intent") === "disclaimer") {
    const submission = submissionOf(form, disclaimerSchema);
    if (submission.status !== "success") return replyWith(submission);
    await saveDocumentDisclaimer(services, viewer, submission.value.disclaimer);
    return redirectWithFlash("/admin/templates", { kind: "success", message: "Saved the notice." }, services.config);
  }
  const submission = submissionOf(form, newTemplateSchema);
  if (submission.status !== "success") return replyWith(submission);
  const { causeCode, kind, round } = submission.value;
  return withFormErrors(submission, async () => {
    const { template, created } = await createTemplateScope(services, viewer, {
      causeCode: causeCode || null,
      kind,
      round: round ?? null,
    });
    const message = created
      ? "Created from the text in use. Edit it, then save: new documents of its cause and round use it."
      : "That template exists already: here it is.";
    return redirectWithFlash(
      `/admin/templates/${template.id}`,
      { kind: created ? "success" : "warn", message },
      services.config,
    );
  });
}

export default function Templates() {
  const data = useLoaderData<typeof loader>();
  return <TemplateList {...data} lastResult={lastResultOf(useActionData<typeof action>())} />;
}

/** A step-up prompt in the place of the page when a sensitive action asks for a fresh second factor. */
export { StepUpBoundary as ErrorBoundary } from "~/components/factors/step-up-card";
