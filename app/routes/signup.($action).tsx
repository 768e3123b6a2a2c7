import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ExpiredLink } from "~/components/expired-link";
import { lastResultOf } from "~/components/forms/inputs";
import { CheckEmail, SignupForm } from "~/components/identity/signup";
import { notFoundPage } from "~/lib/http.server";
import { refusedBeforeReading } from "~/lib/limit-first.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { descriptionMeta } from "~/lib/description-meta";
import {
  ipLimit,
  linkTokenOf,
  paidEmailOf,
  resendVerification,
  signUp,
  signupPasswordWeakness,
  signupPageOf,
  signupSchema,
  verifyEmail,
} from "~/services/accounts.server";
import { sessionCookies } from "~/services/auth.server";
import { keepChosenPlan } from "~/services/billing/chosen-plan.server";
import { clientMeta, optionalViewer } from "~/services/session.server";
import { redirectWithFlash } from "~/services/flash.server";

export { retryAfterHeaders as headers } from "~/lib/route-headers";

export const handle = { layout: "logo" };

export const meta: MetaFunction = ({ matches }) => [{ title: "Sign up" }, ...descriptionMeta(matches)];

/** /signup (the form), /signup/check-email (after it), /signup/verify?token=… (the e-mailed link). */
function pageOf(action: string | undefined) {
  const page = signupPageOf(action);
  return page === null ? notFoundPage() : page;
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const page = pageOf(params.action);
  const { viewer, services } = await optionalViewer(request, context);
  if (page === "verify") {
    const token = linkTokenOf(new URL(request.url).searchParams.get("token"));
    if (!token || !(await verifyEmail(services, token, context.clientIp))) {
      return json({ page: "verify-failed" as const, email: viewer?.user.email ?? null, verified: false });
    }
    return redirectWithFlash(
      viewer ? "/setup" : "/login",
      {
        kind: "success",
        message: viewer ? "Your e-mail address is confirmed." : "Your e-mail address is confirmed. Log in to continue.",
      },
      services.config,
    );
  }
  if (page === "check-email") {
    if (!viewer) throw redirect("/login");
    return json({
      page: "check-email" as const,
      email: viewer.user.email,
      verified: viewer.user.emailVerifiedAt !== null,
    });
  }
  const url = new URL(request.url);
  // A plan chosen before signing up is kept for setup, which goes on to its payment.
  const keepPlan = await keepChosenPlan(services.config, url.searchParams.get("plan"));
  if (viewer) {
    const to = viewer.member.needsSetup ? "/setup" : "/";
    throw redirect(to, keepPlan && viewer.member.needsSetup ? { headers: { "Set-Cookie": keepPlan } } : undefined);
  }
  // A visitor who paid first arrives with the payment's e-mail: signing up with it claims the payment.
  const email = paidEmailOf(url.searchParams.get("email"));
  return json(
    { page: "form" as const, email, verified: false },
    keepPlan ? { headers: { "Set-Cookie": keepPlan } } : undefined,
  );
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const page = pageOf(params.action);
  const { viewer, services } = await optionalViewer(request, context);
  if (page === "check-email") {
    if (!viewer) throw redirect("/login");
    return json({ resent: await resendVerification(services, viewer.user.id) });
  }
  if (page) notFoundPage();

  const refused = await refusedBeforeReading(signupSchema, () => ipLimit(services, "signup", context.clientIp));
  if (refused) return refused;
  const { form, submission } = await parseSubmission(request, signupSchema);
  return withFormErrors(submission, async () => {
    if (submission.status !== "success") {
      // A filled honeypot is a robot: answer as if all went well and keep nothing.
      if (submission.error?.website) return redirect("/signup/check-email");
      // The password's strength is told with the other fields' messages, not after them.
      const password = form.get("password");
      const weakness =
        typeof password === "string" && !submission.error?.password
          ? signupPasswordWeakness(services, {
              username: String(form.get("username") ?? ""),
              email: String(form.get("email") ?? ""),
              password,
            })
          : null;
      return replyWith(submission, weakness ? { fieldErrors: { password: [weakness] } } : {});
    }
    const client = clientMeta(request, context.clientIp, form.get("devicePublicKey"));
    const { sessionId } = await signUp(services, submission.value, client);
    return redirect("/signup/check-email", { headers: await sessionCookies(services.config, sessionId) });
  });
}

export default function Signup() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  if (data.page === "form") return <SignupForm lastResult={lastResultOf(reply)} email={data.email} />;
  if (data.page === "verify-failed") {
    return (
      <ExpiredLink
        explanation="A confirmation link works once, for 48 hours. Log in and ask for a new one."
        to={data.email ? "/signup/check-email" : "/login"}
        action={data.email ? "Send a new link" : "Log in"}
      />
    );
  }
  const resent = reply && "resent" in reply ? reply.resent : undefined;
  return <CheckEmail email={data.email} verified={data.verified} resent={resent} />;
}
