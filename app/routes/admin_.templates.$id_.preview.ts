import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { templateBodySchema, templateIdOf } from "~/domain/documents/templates";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { pdfResponse } from "~/lib/pdf-response.server";
import { readForm, submissionOf } from "~/lib/submission.server";
import { renderTemplatePreview } from "~/services/documents/render.server";
import { templateById } from "~/services/documents/templates.server";
import { requireAdmin } from "~/services/session.server";

/** The editor's preview frame: a template's document on a sample round. */

const PREVIEW_NAME = "template-preview.pdf";

/** GET: the saved text's document. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const id = templateIdOf(params.id) ?? notFoundPage();
  return withPageErrors(async () => {
    const template = await templateById(services.db, id);
    return pdfResponse({
      bytes: await renderTemplatePreview(services, template, template.body),
      filename: PREVIEW_NAME,
    });
  });
}

/** POST: the text being edited, not saved; text that would not save answers what is wrong with it, in the frame. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const id = templateIdOf(params.id) ?? notFoundPage();
  return withPageErrors(async () => {
    const template = await templateById(services.db, id);
    const submission = submissionOf(await readForm(request), templateBodySchema(template.kind));
    if (submission.status !== "success") {
      const problems = Object.values(submission.error ?? {}).flatMap((messages) => messages ?? []);
      return new Response(`The text cannot be shown yet:\n\n${problems.join("\n")}`, {
        status: 400,
        headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
      });
    }
    const bytes = await renderTemplatePreview(services, template, submission.value.body);
    return pdfResponse({ bytes, filename: PREVIEW_NAME });
  });
}
