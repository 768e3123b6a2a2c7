import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { randomUUID } from "node:crypto";
import { lastResultOf } from "~/components/forms/fields";
import { SubscriptionView } from "~/components/billing/checkout-pages";
import { amountToCents } from "~/lib/schemas.server";
import { checkoutFormSchema } from "~/lib/schemas.server";
import { pageRedirect } from "~/lib/http.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { subscriptionPage, startPageCheckout } from "~/services/billing/subscription-page.server";
import { optionalViewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Membership" }];

/** /subscription: anyone may look; a visitor may give a donation or buy a credit by e-mail. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await optionalViewer(request, context);
  return json(await subscriptionPage(services, request, viewer, randomUUID()));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await optionalViewer(request, context);
  const { submission } = await parseSubmission(request, checkoutFormSchema);
  if (submission.status !== "success") return replyWith(submission);
  const { attempt, planId, amount, coupon, email, returnTo } = submission.value;
  return withFormErrors(submission, async () => {
    const started = await startPageCheckout(services, request, viewer, {
      attempt,
      planId,
      donationCents: amountToCents(amount),
      couponSlug: coupon || null,
      email: email ?? null,
      returnPath: returnTo ?? null,
    });
    const init = started.setCookie ? { headers: { "Set-Cookie": started.setCookie } } : undefined;
    return pageRedirect(request, started.next, init);
  });
}

export default function Subscription() {
  return (
    <SubscriptionView data={useLoaderData<typeof loader>()} lastResult={lastResultOf(useActionData<typeof action>())} />
  );
}
