import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { lastResultOf } from "~/components/forms/fields";
import { SetupView } from "~/components/identity/setup";
import { amountToCents, membershipStepSchema, profileStepSchema, setupDestination } from "~/lib/schemas.server";
import { pageRedirect } from "~/lib/http.server";
import { parseSubmission, replyWith, withFormErrors } from "~/lib/submission.server";
import { checkoutPagePath } from "~/services/billing/pages.server";
import { chosenPlanOf, forgetChosenPlan } from "~/services/billing/chosen-plan.server";
import { saveProfileStep, setupPage, startChosenPlanCheckout, startMembershipCheckout } from "~/services/setup.server";
import { requireViewer, siteCookies } from "~/services/session.server";
import { redirectWithFlash } from "~/services/flash.server";

export const handle = { layout: "logo" };

export const meta: MetaFunction = () => [{ title: "Setup" }];

/** The member on the step `code` names; any other step redirects to the one to take now. */
async function currentStep(request: Request, context: LoaderFunctionArgs["context"], code: string | undefined) {
  const { viewer, services } = await requireViewer(request, context);
  const destination = setupDestination(code, viewer.member, { free: services.config.free });
  if ("redirect" in destination) throw redirect(destination.redirect);
  return { viewer, services, step: destination.step };
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services, step } = await currentStep(request, context, params.code);
  const { config } = services;
  return json(
    await setupPage(services, viewer, step, await offerSlug(request, config), await chosenPlanOf(request, config)),
  );
}

/** The offer the member came with (a coupon landing keeps it in a cookie). */
async function offerSlug(request: Request, config: Parameters<typeof siteCookies>[0]): Promise<string | null> {
  const slug: unknown = await siteCookies(config).coupon.parse(request.headers.get("cookie"));
  return typeof slug === "string" ? slug : null;
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services, step } = await currentStep(request, context, params.code);
  const finish = ({ next }: { next: string | null }) =>
    next
      ? redirect(`/setup/${next}`)
      : redirectWithFlash("/", { kind: "success", message: "Your setup is complete. Welcome!" }, services.config);

  if (step === "profile") {
    const { submission } = await parseSubmission(request, profileStepSchema);
    if (submission.status !== "success") return replyWith(submission);
    return withFormErrors(submission, async () => {
      const saved = await saveProfileStep(services, viewer, submission.value);
      const chosen = await chosenPlanOf(request, services.config);
      if (saved.next !== "membership" || !chosen) return finish(saved);
      // The plan chosen before signing up: straight to its payment, with the offer kept.
      const checkout = await startChosenPlanCheckout(services, viewer, {
        planId: chosen,
        couponSlug: await offerSlug(request, services.config),
      });
      if (!checkout) return finish(saved);
      return pageRedirect(request, checkoutPagePath(checkout), {
        headers: { "Set-Cookie": await forgetChosenPlan(services.config) },
      });
    });
  }
  const { submission } = await parseSubmission(request, membershipStepSchema);
  if (submission.status !== "success") return replyWith(submission);
  const { attempt, planId, amount } = submission.value;
  const couponSlug = await offerSlug(request, services.config);
  return withFormErrors(submission, async () => {
    const checkout = await startMembershipCheckout(services, viewer, {
      attempt,
      planId,
      amountCents: amountToCents(amount),
      couponSlug,
    });
    return pageRedirect(request, checkoutPagePath(checkout));
  });
}

export default function Setup() {
  return <SetupView data={useLoaderData<typeof loader>()} lastResult={lastResultOf(useActionData<typeof action>())} />;
}
