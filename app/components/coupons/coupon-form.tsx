import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import {
  checkboxGroupProps,
  ErrorList,
  Field,
  FormErrors,
  formProps,
  SelectField,
  useSchemaForm,
} from "~/components/forms/fields";
import { SubmitButton } from "~/components/ui/submit-button";
import { COUPON_ID_RULE, redeemByDate } from "~/domain/coupons";
import { formatCents } from "~/lib/format";

export type EditedCoupon = {
  id: string;
  name: string;
  duration: "once" | "repeating" | "forever";
  durationInMonths: number | null;
  amountOff: number | null;
  percentOff: number | null;
  currency: string | null;
  redeemBy: string | null;
  maxRedemptions: number | null;
  timesRedeemed: number;
  planIds: string[];
};

const text = (value: number | string | null) => (value === null ? "" : String(value));

/** The form's values for a coupon being changed; a new one starts once, in the first currency. */
function defaults(coupon: EditedCoupon | null, currency: string) {
  if (!coupon) return { duration: "once", currency };
  return {
    coupon_id: coupon.id,
    name: coupon.name,
    duration: coupon.duration,
    duration_in_months: text(coupon.durationInMonths),
    amount_off: coupon.amountOff === null ? "" : formatCents(coupon.amountOff),
    currency: coupon.currency ?? currency,
    percent_off: text(coupon.percentOff),
    redeem_by: redeemByDate(coupon.redeemBy),
    max_redemptions: text(coupon.maxRedemptions),
    plans: coupon.planIds,
  };
}

/**
 * Creates a coupon, or changes one (`editing`): its code, name, how long it lasts, an amount
 * off in dollars or a percent off, the last day to redeem it, a limit, and its plans.
 */
export function CouponForm({
  editing,
  plans,
  currencies,
  lastResult,
}: {
  editing: EditedCoupon | null;
  plans: { id: string; title: string }[];
  currencies: string[];
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useSchemaForm(() => import("~/domain/coupon-forms").then((m) => m.couponFormSchema), {
    id: "coupon-form",
    lastResult,
    defaultValue: defaults(editing, currencies[0] ?? "usd"),
  });
  return (
    <>
      <h2 id="coupon-form-title">{editing ? `Change the coupon ${editing.id}` : "Create a coupon"}</h2>
      {editing && editing.timesRedeemed > 0 ? (
        <p className="muted">
          It has been redeemed, so only its name and its limit can change: to change its terms, archive it and create
          another.
        </p>
      ) : null}
      <FormErrors form={form} />
      <Form method="post" className="form" aria-labelledby="coupon-form-title" {...formProps(form)}>
        <input type="hidden" name="intent" value="save-coupon" />
        {editing ? <input type="hidden" name="editing" value="1" /> : null}
        <Field meta={fields.coupon_id} label="Code" hint={COUPON_ID_RULE} readOnly={Boolean(editing)} />
        <Field meta={fields.name} label="Name" />
        <SelectField meta={fields.duration} label="Duration">
          <option value="once">Once: the first payment</option>
          <option value="repeating">Repeating: for some months</option>
          <option value="forever">Forever: every payment</option>
        </SelectField>
        <Field meta={fields.duration_in_months} type="number" label="Months (repeating only)" />
        <Field meta={fields.amount_off} label="Amount off (in dollars)" inputMode="decimal" hint="Or a percent off" />
        <SelectField meta={fields.currency} label="Currency of the amount off">
          {currencies.map((code) => (
            <option key={code} value={code}>
              {code.toUpperCase()}
            </option>
          ))}
        </SelectField>
        <Field meta={fields.percent_off} type="number" step="0.01" label="Percent off" />
        <Field meta={fields.redeem_by} type="date" label="Redeem by (optional)" hint="The last day it can be used" />
        <Field meta={fields.max_redemptions} type="number" label="Max redemptions (optional)" />
        <fieldset aria-describedby={fields.plans.errors ? fields.plans.errorId : undefined}>
          <legend>Plans it is for</legend>
          {checkboxGroupProps(
            fields.plans,
            plans.map((p) => p.id),
          ).map(({ key, ...props }) => (
            <div className="checkbox" key={key}>
              <input {...props} />
              <label htmlFor={props.id}>{plans.find((p) => p.id === props.value)?.title}</label>
            </div>
          ))}
          <ErrorList id={fields.plans.errorId} errors={fields.plans.errors} />
        </fieldset>
        <div className="actions">
          <SubmitButton pendingText="Saving…">{editing ? "Save the coupon" : "Create the coupon"}</SubmitButton>
          {editing ? <Link to="/coupon/discounts#coupons">Cancel</Link> : null}
        </div>
      </Form>
    </>
  );
}
