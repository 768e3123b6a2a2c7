import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { LoginHelpForm, ResetLinkSent } from "~/components/identity/password-help";
import { resetRequestSchema } from "~/lib/schemas.server";
import { refusedBeforeReading } from "~/lib/limit-first.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { ipLimit, queuePasswordReset } from "~/services/accounts.server";
import { appServices } from "~/services/app.server";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const handle = { layout: "logo" };

export const meta: MetaFunction = () => [{ title: "Login help" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const refused = await refusedBeforeReading(resetRequestSchema, () => ipLimit(services, "reset", context.clientIp));
  if (refused) return refused;
  const { submission } = await parseSubmission(request, resetRequestSchema);
  return withFormErrors(submission, async () => {
    if (submission.status !== "success") return replyWith(submission);
    // Whether the address has an account is decided off the request, so both answers take as long.
    await queuePasswordReset(services, submission.value.email);
    return json({ sentTo: submission.value.email });
  });
}

export default function LoginHelp() {
  const reply = useActionData<typeof action>();
  if (reply && "sentTo" in reply) return <ResetLinkSent email={reply.sentTo} />;
  return <LoginHelpForm lastResult={lastResultOf(reply)} />;
}
