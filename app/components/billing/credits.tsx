import { Form } from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import { creditsText, NO_CREDIT_MESSAGE } from "~/domain/credit-text";
import { formatMoney } from "~/lib/format";
import type { OneOffOffer } from "~/services/billing/subscription-page.server";

/*
 * A donation or a notarize credit, bought at any time. The forms post to /subscription's
 * checkout, which answers with the card page (or /subscription with the form's errors).
 */

/** The one-off payments a member may choose from: which one, and a donation's amount. */
export function OneOffForm({ offer, id }: { offer: OneOffOffer; id: string }) {
  const range = `From ${formatMoney(offer.donation.minCents)} to ${formatMoney(offer.donation.maxCents)}.`;
  return (
    <Form method="post" action="/subscription" className="form" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Give a donation or buy a notarize credit</h2>
      <input type="hidden" name="attempt" value={offer.attempt} />
      <fieldset>
        <legend>What to pay</legend>
        {offer.plans.map((plan, index) => (
          <div className="choice" key={plan.id}>
            <input type="radio" id={`${id}-${plan.id}`} name="planId" value={plan.id} defaultChecked={index === 0} />
            <label htmlFor={`${id}-${plan.id}`}>
              {plan.title} — {plan.price ?? "an amount you choose"}
            </label>
          </div>
        ))}
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-amount`}>Donation amount (USD), for a donation</label>
        <p id={`${id}-amount-hint`} className="field-hint">
          {range}
        </p>
        <input id={`${id}-amount`} name="amount" inputMode="decimal" aria-describedby={`${id}-amount-hint`} />
      </div>
      <div className="actions">
        <SubmitButton pendingText="Starting your payment…">Continue to payment</SubmitButton>
      </div>
    </Form>
  );
}

/** One button that buys one notarize credit, coming back to `offer.returnTo` once paid. */
export function BuyCreditForm({ offer, label }: { offer: OneOffOffer; label: string }) {
  const credit = offer.plans.find((plan) => plan.kind === "credit");
  if (!credit) return null;
  return (
    <Form method="post" action="/subscription" className="form" aria-label={label}>
      <input type="hidden" name="attempt" value={offer.attempt} />
      <input type="hidden" name="planId" value={credit.id} />
      {offer.returnTo ? <input type="hidden" name="returnTo" value={offer.returnTo} /> : null}
      <div className="actions">
        <SubmitButton pendingText="Starting your payment…">
          {label}
          {credit.price ? ` (${credit.price})` : ""}
        </SubmitButton>
      </div>
    </Form>
  );
}

/** The notarize page's credits: how many, and a way to buy one when there are none. */
export function NotarizeCredits({ balance, offer }: { balance: number; offer: OneOffOffer }) {
  return (
    <section aria-labelledby="credits-title">
      <h2 id="credits-title">Your notarize credits</h2>
      <p>
        You have <strong data-testid="credit-balance">{creditsText(balance)}</strong>. Notarize online spends one; it
        comes back if the notary refuses the document or you delete it before the notary starts.
      </p>
      {balance === 0 ? (
        <Alert kind="warn" title="No credit left">
          {NO_CREDIT_MESSAGE} You come back to this page once you have paid.
        </Alert>
      ) : null}
      {balance === 0 ? <BuyCreditForm offer={offer} label="Buy a notarize credit" /> : null}
    </section>
  );
}
