import { ErrorList, type FieldMeta } from "~/components/forms/inputs";
import { Alert } from "~/components/ui/alert";
import type { PlanOffer } from "~/domain/billing";
import { formatMoney } from "~/lib/format";

function priceText(entry: PlanOffer): { now: string; before: string | null; after: string | null } {
  const { plan, quote } = entry;
  const every = plan.interval ? ` a ${plan.interval}` : "";
  if (!quote) return { now: "an amount you choose", before: null, after: null };
  const now = `${formatMoney(quote.amountCents, quote.currency)}${every}`;
  const before = quote.amountCents < quote.listAmountCents ? formatMoney(quote.listAmountCents, quote.currency) : null;
  const after =
    quote.laterAmountCents !== null && quote.laterAmountCents !== quote.amountCents
      ? `then ${formatMoney(quote.laterAmountCents, quote.currency)}${every}`
      : null;
  return { now, before, after };
}

/**
 * The plans to choose from, each with what it includes and its price with the offer in force
 * (the list price struck through when the offer lowers it).
 */
export function PlanChoices({
  entries,
  name,
  chosen,
  needsAccount = () => false,
}: {
  entries: PlanOffer[];
  name: string;
  chosen: string | undefined;
  needsAccount?: (entry: PlanOffer) => boolean;
}) {
  return (
    <>
      {entries.map((entry) => {
        const price = priceText(entry);
        return (
          <div className="choice" key={entry.plan.id}>
            <input
              type="radio"
              id={`plan-${entry.plan.id}`}
              name={name}
              value={entry.plan.id}
              defaultChecked={chosen === entry.plan.id}
              aria-describedby={`plan-${entry.plan.id}-about`}
            />
            <label htmlFor={`plan-${entry.plan.id}`}>
              {entry.plan.title} —{" "}
              {price.before ? (
                <>
                  <s aria-label={`was ${price.before}`}>{price.before}</s>{" "}
                </>
              ) : null}
              {price.now}
              {price.after ? `, ${price.after}` : null}
            </label>
            <p className="field-hint" id={`plan-${entry.plan.id}-about`}>
              {entry.plan.description}
              {entry.couponNote ? ` ${entry.couponNote}.` : null}
              {needsAccount(entry) ? " Needs an account: you sign up first." : null}
            </p>
          </div>
        );
      })}
    </>
  );
}

/**
 * A pay form's choice of plan: the offer in force above it, the form's attempt (a form sent twice
 * is one payment), and the plans with the choice's error.
 */
export function PlanFieldset({
  legend,
  coupon,
  attempt,
  fields,
  ...choices
}: {
  legend: string;
  coupon: { name: string; description: string } | null;
  attempt: string;
  fields: { attempt: FieldMeta<string>; planId: FieldMeta<string> };
} & Omit<Parameters<typeof PlanChoices>[0], "name">) {
  return (
    <>
      {coupon ? (
        <Alert kind="success" title={coupon.name}>
          {coupon.description}: the prices below include it.
        </Alert>
      ) : null}
      <input type="hidden" name={fields.attempt.name} value={attempt} />
      <fieldset aria-describedby={fields.planId.errors ? fields.planId.errorId : undefined}>
        <legend>{legend}</legend>
        <PlanChoices name={fields.planId.name} {...choices} />
        <ErrorList id={fields.planId.errorId} errors={fields.planId.errors} />
      </fieldset>
    </>
  );
}
