import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CouponDiscountsPage } from "~/components/coupons/discount-list";
import { archiveCouponSchema, couponFormSchema } from "~/lib/schemas.server";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { readForm, replyWith, submissionOf, withFormErrors } from "~/lib/submission.server";
import { archiveCoupon, saveCoupon } from "~/services/coupon-changes.server";
import { couponAdminPage, discountsQuerySchema } from "~/services/coupons-admin.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireAdmin } from "~/services/session.server";
import { requireStepUp } from "~/services/factors/step-up.server";

export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Coupon discounts" }];

/** /coupon/discounts?show=active|inactive|all[&coupon={id}]: the discounts, the coupons, and the coupon form. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const { show, coupon } = discountsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const page = await couponAdminPage(services, show);
  const editing = page.coupons.find((c) => c.id === coupon && c.valid) ?? null;
  return json({ ...page, show, editing });
}

/** Creates or changes a coupon (intent save-coupon), or archives one (intent archive-coupon). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const form = await readForm(request);
  await requireStepUp(services, viewer, "coupon-change", request, form);
  if (form.get("intent") === "archive-coupon") {
    const archive = archiveCouponSchema.safeParse(Object.fromEntries(form));
    if (!archive.success) notFoundPage();
    const name = await withPageErrors(() => archiveCoupon(services, viewer, archive.data.coupon_id));
    const message = `The coupon ${name} is archived: no new discount can use it.`;
    return redirectWithFlash("/coupon/discounts#coupons", { kind: "success", message }, services.config);
  }
  const submission = submissionOf(form, couponFormSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    const saved = await saveCoupon(services, viewer, submission.value, { editing: form.get("editing") === "1" });
    const message = `The coupon ${saved.id} is ${saved.update ? "saved" : "created"}.`;
    return redirectWithFlash("/coupon/discounts#coupons", { kind: "success", message }, services.config);
  });
}

export default function CouponDiscounts() {
  return (
    <CouponDiscountsPage data={useLoaderData<typeof loader>()} lastResult={useActionData<typeof action>()?.result} />
  );
}

/** A step-up prompt in the place of the page when a sensitive action asks for a fresh second factor. */
export { StepUpBoundary as ErrorBoundary } from "~/components/factors/step-up-card";
