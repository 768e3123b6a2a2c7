import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { NewsletterView } from "~/components/identity/newsletter";
import { linkTokenOf } from "~/lib/schemas.server";
import { newsletterSchema } from "~/lib/schemas.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { appServices } from "~/services/app.server";
import { confirmNewsletter, subscribeNewsletter, unsubscribeNewsletter } from "~/services/newsletter.server";
import { optionalViewer } from "~/services/session.server";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const meta: MetaFunction = () => [{ title: "Newsletter" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await optionalViewer(request, context);
  const url = new URL(request.url);
  return json({
    email: viewer?.member.email ?? "",
    confirm: linkTokenOf(url.searchParams.get("confirm")),
    unsubscribe: linkTokenOf(url.searchParams.get("unsubscribe")),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const { submission } = await parseSubmission(request, newsletterSchema);
  if (submission.status !== "success") return replyWith(submission);
  const data = submission.value;
  if (data.intent === "confirm") {
    return json({ done: (await confirmNewsletter(services, data.token)) ? "confirmed" : "expired" } as const);
  }
  if (data.intent === "unsubscribe") {
    return json({ done: (await unsubscribeNewsletter(services, data.token)) ? "unsubscribed" : "expired" } as const);
  }
  return withFormErrors(submission, async () => {
    await subscribeNewsletter(services, data.email, context.clientIp);
    return json({ done: "sent" as const });
  });
}

export default function Newsletter() {
  const { email, confirm, unsubscribe } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <NewsletterView
      email={email}
      confirm={confirm}
      unsubscribe={unsubscribe}
      done={reply && "done" in reply ? reply.done : undefined}
      lastResult={lastResultOf(reply)}
    />
  );
}
