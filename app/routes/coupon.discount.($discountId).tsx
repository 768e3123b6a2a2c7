import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DiscountEditor } from "~/components/coupons/discount-form";
import { discountFormSchema, discountIdOf } from "~/lib/schemas.server";
import { couponOptions } from "~/domain/coupons";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { readForm, replyWith, submissionOf, withFormErrors } from "~/lib/submission.server";
import { deleteDiscount, saveDiscount } from "~/services/coupon-changes.server";
import { discountApi, newDiscountApi } from "~/services/coupons-admin.server";
import { redirectWithFlash } from "~/services/flash.server";
import { requireAdmin } from "~/services/session.server";
import { requireStepUp } from "~/services/factors/step-up.server";

export const handle = { layout: "container" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.coupon_discount ? `Coupon discount /c/${data.coupon_discount.coupon_slug}` : "New coupon discount" },
];

/** The discount the path names: null for /coupon/discount (a new one); a 404 for anything else. */
function discountId(params: { discountId?: string }): number | null {
  if (params.discountId === undefined) return null;
  return discountIdOf(params.discountId) ?? notFoundPage();
}

/** /coupon/discount/{id?}: a discount to edit (or a new one) with the coupons it may take (spec §5). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const id = discountId(params);
  const data =
    id === null
      ? { coupon_discount: null, ...(await newDiscountApi(services.db)) }
      : await withPageErrors(() => discountApi(services.db, id));
  return json({ ...data, coupons: couponOptions(data.coupons, id !== null) });
}

/** Saves the discount, or deletes it (intent delete, behind the confirm button). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const id = discountId(params);
  const form = await readForm(request);
  await requireStepUp(services, viewer, "coupon-change", request, form);
  if (form.get("intent") === "delete") {
    if (id === null) notFoundPage();
    const slug = await withPageErrors(() => deleteDiscount(services, viewer, id));
    const message = `The coupon discount /c/${slug} is deleted.`;
    return redirectWithFlash("/coupon/discounts", { kind: "success", message }, services.config);
  }
  const submission = submissionOf(form, discountFormSchema);
  if (submission.status !== "success") return replyWith(submission);
  return withFormErrors(submission, async () => {
    const { coupon_discount: saved } = await saveDiscount(services, viewer, id, submission.value);
    const message = `The coupon discount /c/${saved.coupon_slug} is saved.`;
    return redirectWithFlash(
      `/coupon/discount/${saved.coupon_discount_id}`,
      { kind: "success", message },
      services.config,
    );
  });
}

export default function CouponDiscount() {
  return <DiscountEditor data={useLoaderData<typeof loader>()} lastResult={useActionData<typeof action>()?.result} />;
}

/** A step-up prompt in the place of the page when a sensitive action asks for a fresh second factor. */
export { StepUpBoundary as ErrorBoundary } from "~/components/factors/step-up-card";
