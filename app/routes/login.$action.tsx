import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { ResetPasswordForm } from "~/components/identity/password-help";
import { linkTokenOf, resetPasswordSchema } from "~/lib/schemas.server";
import { notFoundPage } from "~/lib/http.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { resetPassword, type PasswordLink } from "~/services/accounts.server";
import { appServices } from "~/services/app.server";
import { redirectWithFlash } from "~/services/flash.server";
import { tokenIsLive } from "~/services/tokens.server";

export const handle = { layout: "logo" };

export const meta: MetaFunction = ({ params }) => [
  { title: params.action === "welcome" ? "Choose your password" : "Set a new password" },
];

/**
 * /login/reset?token=… (a password reset) and /login/welcome?token=… (an imported member's
 * invitation) are the pages under /login/ besides help.
 */
function linkPurpose(action: string | undefined): PasswordLink {
  if (action === "reset") return "password_reset";
  if (action === "welcome") return "invitation";
  return notFoundPage();
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const purpose = linkPurpose(params.action);
  const services = await appServices(context);
  const token = linkTokenOf(new URL(request.url).searchParams.get("token"));
  const live = token !== null && (await tokenIsLive(services.db, purpose, token));
  return json({ token: live ? token : null, welcome: purpose === "invitation" });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const purpose = linkPurpose(params.action);
  const services = await appServices(context);
  const { submission } = await parseSubmission(request, resetPasswordSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    await resetPassword(services, submission.value.token, submission.value.password, context.clientIp, purpose);
    const message =
      purpose === "invitation"
        ? "Your password is saved. Log in with it."
        : "Your password is changed. Log in with the new one.";
    return redirectWithFlash("/login", { kind: "success", message }, services.config);
  });
}

export default function ResetPassword() {
  const { token, welcome } = useLoaderData<typeof loader>();
  return (
    <ResetPasswordForm token={token} welcome={welcome} lastResult={lastResultOf(useActionData<typeof action>())} />
  );
}
