import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { ResetPasswordForm } from "~/components/identity/password-help";
import { linkTokenOf, resetPasswordSchema } from "~/lib/schemas.server";
import { notFoundPage } from "~/lib/http.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { resetPassword } from "~/services/accounts.server";
import { appServices } from "~/services/app.server";
import { redirectWithFlash } from "~/services/flash.server";
import { tokenIsLive } from "~/services/tokens.server";

export const handle = { layout: "logo" };

export const meta: MetaFunction = () => [{ title: "Set a new password" }];

/** /login/reset?token=… is the one page under /login/ besides help. */
function requireKnownAction(action: string | undefined) {
  if (action !== "reset") notFoundPage();
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  requireKnownAction(params.action);
  const services = await appServices(context);
  const token = linkTokenOf(new URL(request.url).searchParams.get("token"));
  const live = token !== null && (await tokenIsLive(services.db, "password_reset", token));
  return json({ token: live ? token : null });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  requireKnownAction(params.action);
  const services = await appServices(context);
  const { submission } = await parseSubmission(request, resetPasswordSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    await resetPassword(services, submission.value.token, submission.value.password, context.clientIp);
    return redirectWithFlash(
      "/login",
      { kind: "success", message: "Your password is changed. Log in with the new one." },
      services.config,
    );
  });
}

export default function ResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  return <ResetPasswordForm token={token} lastResult={lastResultOf(useActionData<typeof action>())} />;
}
