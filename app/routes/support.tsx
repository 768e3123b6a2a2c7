import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Card } from "~/components/identity/card";
import { SupportForm } from "~/components/support";
import { supportSchema } from "~/lib/schemas.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { actorOf } from "~/services/audit.server";
import { optionalViewer } from "~/services/session.server";
import { submitSupportRequest } from "~/services/support.server";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const meta: MetaFunction = () => [{ title: "Contact Support" }];

/** The Contact Support form as a page: where the footer's Support link leads without JavaScript. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await optionalViewer(request, context);
  return json({ email: viewer?.member.email ?? "" });
}

/** The footer's modal posts here too, with a fetcher. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await optionalViewer(request, context);
  const { submission } = await parseSubmission(request, supportSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    const { entryNumber } = await submitSupportRequest(services, submission.value, {
      userId: viewer?.member.id ?? null,
      ip: context.clientIp,
      actor: viewer ? actorOf(viewer) : null,
    });
    return json({ entryNumber });
  });
}

export default function SupportPage() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <Card id="support-title" title="Contact Support">
      <SupportForm email={email} reply={useActionData<typeof action>()} />
    </Card>
  );
}
