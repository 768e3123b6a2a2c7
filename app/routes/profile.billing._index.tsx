import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { randomUUID } from "node:crypto";
import { BillingView } from "~/components/billing/account";
import { lastResultOf } from "~/components/forms/fields";
import type { AppServices } from "~/context";
import { formatDate } from "~/lib/format";
import { pageRedirect } from "~/lib/http.server";
import { billingActionSchema, type BillingAction } from "~/lib/schemas.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { billingPage } from "~/services/billing/account.server";
import {
  cancelMembership,
  changeMembershipPlan,
  resumeMembership,
  startCardUpdate,
} from "~/services/billing/account-changes.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireMember, type Viewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Billing and payments" }];

/** /profile/billing: the membership, the card, the payments, and the forms that change them. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const billing = await billingPage(services, viewer, randomUUID());
  return json({ billing }, { headers: { "Cache-Control": "no-store" } });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { submission } = await parseSubmission(request, billingActionSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, () => billingAction(request, services, viewer, submission.value));
}

/** One of /profile/billing's forms: the change at the provider, then back to the page with what happened. */
async function billingAction(
  request: Request,
  services: AppServices,
  viewer: Viewer,
  input: BillingAction,
): Promise<Response> {
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
      return pageRedirect(request, await startCardUpdate(services, viewer, input.attempt));
  }
}

export default function ProfileBilling() {
  const { billing } = useLoaderData<typeof loader>();
  return <BillingView data={billing} lastResult={lastResultOf(useActionData<typeof action>())} />;
}
