import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { randomUUID } from "node:crypto";
import { BillingView } from "~/components/billing/account";
import { lastResultOf } from "~/components/forms/fields";
import { ProfileView } from "~/components/members/profile";
import { billingActionSchema, type BillingAction } from "~/domain/billing-account";
import { invalid } from "~/domain/errors";
import { formatDate } from "~/lib/format";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { billingPage } from "~/services/billing/account.server";
import {
  cancelMembership,
  changeMembershipPlan,
  resumeMembership,
  startCardUpdate,
} from "~/services/billing/account-changes.server";
import { endOtherSessions, profileOf } from "~/services/members.server";
import { requireMember, requireViewer, type Viewer } from "~/services/session.server";
import { redirectWithFlash } from "~/services/flash.server";
import type { AppServices } from "~/context";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.view === "billing" ? "Billing and payments" : "Profile" },
];

/** The sub-pages of /profile/{page?} (spec §2.2): the profile itself, and billing. */
function pageOf(params: { page?: string }): "profile" | "billing" {
  if (!params.page) return "profile";
  return params.page === "billing" ? "billing" : notFoundPage();
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const page = pageOf(params);
  const { viewer, services } = await requireMember(request, context);
  if (page === "billing") {
    const billing = await billingPage(services, viewer, randomUUID());
    return json({ view: "billing" as const, billing, profile: null }, { headers: { "Cache-Control": "no-store" } });
  }
  return json({ view: "profile" as const, profile: profileOf(viewer), billing: null });
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  if (pageOf(params) === "billing") {
    const { viewer, services } = await requireMember(request, context);
    const { submission } = await parseSubmission(request, billingActionSchema);
    if (submission.status !== "success") return replyWith(submission);
    return withFormErrors(submission, () => billingAction(services, viewer, submission.value));
  }
  // POST /profile with intent end-other-sessions: signs out every other browser and device.
  const { viewer, services } = await requireViewer(request, context);
  await withPageErrors(async () => {
    const form = await request.formData().catch(() => null);
    if (form?.get("intent") !== "end-other-sessions") throw invalid("Unknown action");
    await endOtherSessions(services.db, viewer);
  });
  return redirectWithFlash(
    "/profile",
    { kind: "success", message: "Your other sessions are logged out." },
    services.config,
  );
}

/** One of /profile/billing's forms: the change at the provider, then back to the page with what happened. */
async function billingAction(services: AppServices, viewer: Viewer, input: BillingAction): Promise<Response> {
  const done = (message: string) =>
    redirectWithFlash("/profile/billing", { kind: "success", message }, services.config);
  switch (input.intent) {
    case "change-plan":
      return done(`Your membership is now the ${await changeMembershipPlan(services, viewer, input)}.`);
    case "cancel": {
      const { endsOn } = await cancelMembership(services, viewer);
      const until = endsOn ? `on ${formatDate(endsOn)}` : "at the end of this period";
      return done(`Your membership ends ${until}. You can resume it until then.`);
    }
    case "resume":
      await resumeMembership(services, viewer);
      return done("Your membership renews again.");
    case "update-card":
      return redirect(await startCardUpdate(services, viewer, input.attempt));
  }
}

export default function Profile() {
  const data = useLoaderData<typeof loader>();
  const lastResult = lastResultOf(useActionData<typeof action>());
  if (data.billing) return <BillingView data={data.billing} lastResult={lastResult} />;
  return <ProfileView profile={data.profile} />;
}
