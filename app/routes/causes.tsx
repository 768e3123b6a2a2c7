import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { CauseCatalogue } from "~/components/admin/cause-catalogue";
import { causeFormSchema } from "~/lib/schemas.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { causeCatalogueAdmin, saveCause } from "~/services/cause-admin.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireAdmin } from "~/services/session.server";

export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Causes" }];

/** /causes: the cause catalogue, for admins. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  return json(await causeCatalogueAdmin(services), { headers: { "Cache-Control": "no-store" } });
}

/** Saves one cause (names, statuses by country, the features of new versions) or adds one; audited. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const { submission } = await parseSubmission(request, causeFormSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    const message = await saveCause(services, viewer, submission.value);
    return redirectWithFlash("/causes", { kind: "success", message }, services.config);
  });
}

export default function Causes() {
  const data = useLoaderData<typeof loader>();
  return <CauseCatalogue data={data} lastResult={lastResultOf(useActionData<typeof action>())} />;
}
