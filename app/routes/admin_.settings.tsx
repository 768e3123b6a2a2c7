import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CommunityLinksForm } from "~/components/admin/community-links";
import { lastResultOf } from "~/components/forms/fields";
import { communityLinksSchema } from "~/lib/schemas.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { communityLinks, saveCommunityLinks } from "~/services/community-links.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireAdmin } from "~/services/session.server";

// admin_: its own page at /admin/settings, not a part drawn inside the /admin page.
export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Community links" }];

/** /admin/settings (admins): the community's invite link and the causes' community spaces. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  return json(await communityLinks(services), { headers: { "Cache-Control": "no-store" } });
}

/** Saves the links; bad addresses come back beside their fields and nothing is saved. Audited. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const { submission } = await parseSubmission(request, communityLinksSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    await saveCommunityLinks(services, viewer, submission.value);
    return redirectWithFlash(
      "/admin/settings",
      { kind: "success", message: "The community links are saved." },
      services.config,
    );
  });
}

export default function Settings() {
  return (
    <CommunityLinksForm
      links={useLoaderData<typeof loader>()}
      lastResult={lastResultOf(useActionData<typeof action>())}
    />
  );
}
