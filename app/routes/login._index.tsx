import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/inputs";
import { LoginForm } from "~/components/identity/login";
import { safeRedirectPath } from "~/domain/guard";
import { replyWith, replyWithError } from "~/lib/submission.server";
import { descriptionMeta } from "~/lib/description-meta";
import { appServices } from "~/services/app.server";
import { authenticateLogin, LoginRefused, sessionCookies } from "~/services/auth.server";
import { pendingLoginCookie } from "~/services/factors/sign-in.server";
import { optionalViewer } from "~/services/session.server";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const handle = { layout: "logo" };

export const meta: MetaFunction = ({ matches }) => [{ title: "Log in" }, ...descriptionMeta(matches)];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await optionalViewer(request, context);
  if (viewer) throw redirect("/redirect-login-success");
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  return json({ redirectTo: redirectTo ? safeRedirectPath(redirectTo, "") || null : null });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  try {
    const result = await authenticateLogin(services, request, context.clientIp);
    if (result.kind !== "session") {
      const cookie = await pendingLoginCookie(services, result.pending);
      const next = result.kind === "factor" ? "/login/factor" : "/login/undo-delete";
      return redirect(next, { headers: { "Set-Cookie": cookie } });
    }
    const headers = await sessionCookies(services.config, result.sessionId, result.redirectTo);
    return redirect("/redirect-login-success", { headers });
  } catch (error) {
    if (!(error instanceof LoginRefused)) throw error;
    return error.reason ? replyWithError(error.submission, error.reason) : replyWith(error.submission);
  }
}

export default function Login() {
  const { redirectTo } = useLoaderData<typeof loader>();
  return <LoginForm redirectTo={redirectTo} lastResult={lastResultOf(useActionData<typeof action>())} />;
}
