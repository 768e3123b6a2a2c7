import type { SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { CheckboxField, Field, FormErrors, formProps, TextareaField, useSchemaForm } from "~/components/forms/fields";
import { RadioField } from "~/components/forms/radio-field";
import { RecordPage } from "~/components/admin/record-page";
import { SubmitButton } from "~/components/ui/submit-button";
import { COUPON_SLUG_RULE } from "~/domain/coupons";
import { describeCoupon } from "~/domain/coupons";
import type { CouponJson, DiscountJson, PlanJson } from "~/services/coupons.server";
import { ConfirmForm } from "~/components/ui/intent-form";

type Data = SerializeFrom<{ coupon_discount: DiscountJson | null; coupons: CouponJson[]; plans: PlanJson[] }>;

/** /coupon/discount/{id?}: a coupon discount's landing page, group, welcome, coupon, and whether it is open. */
export function DiscountEditor({ data, lastResult }: { data: Data; lastResult?: SubmissionResult<string[]> }) {
  const discount = data.coupon_discount;
  const [form, fields] = useSchemaForm(() => import("~/domain/coupon-forms").then((m) => m.discountFormSchema), {
    lastResult,
    defaultValue: discount
      ? {
          coupon_slug: discount.coupon_slug,
          group_name: discount.group_name ?? "",
          welcome_message: discount.welcome_message ?? "",
          active: discount.active ? "on" : undefined,
          coupon_id: discount.coupon_id,
        }
      : { active: "on" },
  });
  return (
    <RecordPage
      title={discount ? `Coupon discount /c/${discount.coupon_slug}` : "New coupon discount"}
      titleId="discount-title"
      back={{ to: "/coupon/discounts", label: "All coupon discounts" }}
    >
      {discount ? (
        <p>
          Its landing page: <Link to={`/c/${discount.coupon_slug}`}>/c/{discount.coupon_slug}</Link>
        </p>
      ) : null}
      <FormErrors form={form} />
      <Form method="post" className="form" {...formProps(form)}>
        <Field meta={fields.coupon_slug} label="Slug" hint={`The landing page is /c/{slug}. ${COUPON_SLUG_RULE}.`} />
        <Field meta={fields.group_name} label="Group (optional)" />
        <TextareaField meta={fields.welcome_message} label="Welcome message (optional)" rows={3} />
        <RadioField
          meta={fields.coupon_id}
          label="Coupon"
          hint={discount ? "Archived coupons are listed because this discount exists already." : "Valid coupons only."}
          choices={data.coupons.map((c) => ({
            value: c.coupon_id,
            label: `${c.name}: ${describeCoupon(c)}${c.valid ? "" : " (archived)"}`,
          }))}
        />
        <CheckboxField meta={fields.active} label="Active: the landing page shows the offer" />
        <div className="actions">
          <SubmitButton pendingText="Saving…">{discount ? "Save the discount" : "Create the discount"}</SubmitButton>
        </div>
      </Form>
      {discount ? (
        <ConfirmForm intent="delete" confirmText="Click again to delete it">
          Delete this discount
        </ConfirmForm>
      ) : null}
    </RecordPage>
  );
}
