import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { SecurityPage } from "~/components/members/security-page";
import { isDomainError } from "~/domain/errors";
import { safeRedirectPath } from "~/domain/guard";
import { withPageErrors } from "~/lib/http.server";
import { sessionFormSchema } from "~/lib/schemas.server";
import { readForm } from "~/lib/submission.server";
import { securityChange, securityOverview, SECURITY_INTENTS } from "~/services/factors/security-page.server";
import { redirectWithFlash } from "~/services/flash.server";
import { endOtherSessions } from "~/services/members.server";
import { endSession, sessionList } from "~/services/profile.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Security" }];

/**
 * /profile/security (spec §2.2): the member's second factors (decision 045) and where they are
 * signed in, each changed by its own form.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  return json(
    {
      sessions: await sessionList(services, viewer),
      security: {
        ...(await securityOverview(services, viewer)),
        redirectTo: safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "") || null,
      },
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const form = await readForm(request);
  const done = (message: string, to = "/profile/security") =>
    redirectWithFlash(to, { kind: "success", message }, services.config);
  const intent = String(form.get("intent") ?? "");
  if (intent === "end-session" || intent === "end-other-sessions") {
    const parsed = sessionFormSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return json({ intent, error: "Choose a session" }, { status: 400 });
    await withPageErrors(() =>
      parsed.data.intent === "end-session"
        ? endSession(services, viewer, parsed.data.session)
        : endOtherSessions(services.db, viewer),
    );
    return done(
      parsed.data.intent === "end-session" ? "That session is logged out." : "Your other sessions are logged out.",
    );
  }
  if (!SECURITY_INTENTS.includes(intent)) return json({ intent, error: "Unknown action" }, { status: 400 });
  const redirectTo = safeRedirectPath(form.get("redirectTo"), "");
  try {
    const { message, makeCodes } = await securityChange(services, viewer, request, form);
    if (!makeCodes) return done(message);
    const query = redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : "";
    return done(`${message} Now make your recovery codes.`, `/profile/security/recovery-codes${query}`);
  } catch (error) {
    if (!isDomainError(error) || error.status >= 500) throw error;
    return json({ intent, error: error.message }, { status: error.status });
  }
}

export default function Security() {
  const { sessions, security } = useLoaderData<typeof loader>();
  return <SecurityPage sessions={sessions} security={security} error={useActionData<typeof action>()?.error ?? null} />;
}

/** A step-up prompt in the place of the page when a change of factors asks for a fresh one. */
export { StepUpBoundary as ErrorBoundary } from "~/components/factors/step-up-card";
