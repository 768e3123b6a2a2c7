import { Form, Link } from "@remix-run/react";
import { SubmitButton } from "~/components/ui/submit-button";
import { planList } from "~/domain/creator-offer";
import type { CreatorOffer } from "~/services/billing/creator-offer.server";

/**
 * Where the NoL creator is out of reach: the plans that include it, and the one way to it
 * (a prorated plan change, a plan to choose, or, for an admin, their own member page's flag).
 */
export function CreatorOfferNote({ offer }: { offer: CreatorOffer }) {
  const { way } = offer;
  if (way.kind === "admin") {
    return (
      <div className="creator-offer">
        <p>
          The NoL creator is not open to your account yet. As an admin, you open it yourself: tick “NoL creator” on{" "}
          <Link to={offer.memberPage}>your member page</Link>.
        </p>
      </div>
    );
  }
  const included = `The NoL creator comes with ${planList(offer.plans.map((plan) => plan.title))}.`;
  if (way.kind === "support") {
    return (
      <div className="creator-offer">
        <p>The NoL creator is not open to your account. Ask the community&apos;s support to open it for you.</p>
      </div>
    );
  }
  if (way.kind === "subscribe") {
    return (
      <div className="creator-offer">
        <p>
          {included} <Link to="/subscription">Choose a plan</Link> to start.
        </p>
      </div>
    );
  }
  if (way.kind === "billing") {
    return (
      <div className="creator-offer">
        <p>
          {included} Your membership cannot change plan now: see <Link to="/profile/billing">your billing</Link>.
        </p>
      </div>
    );
  }
  const upgrades = offer.plans.filter((plan) => way.planIds.includes(plan.id));
  return (
    <div className="creator-offer">
      <p>
        {included} Upgrade your membership: the price difference for the rest of this period is worked out by the day,
        at your next payment.
      </p>
      <div className="actions">
        {upgrades.map((plan) => (
          <Form method="post" action="/profile/billing" key={plan.id}>
            <input type="hidden" name="intent" value="change-plan" />
            <input type="hidden" name="attempt" value={offer.attempt} />
            <input type="hidden" name="planId" value={plan.id} />
            <SubmitButton pendingText="Changing your plan…">
              Upgrade to the {plan.title}
              {plan.price ? ` (${plan.price})` : null}
            </SubmitButton>
          </Form>
        ))}
      </div>
    </div>
  );
}
