import { Link, useRouteLoaderData } from "@remix-run/react";
import { ErrorCard } from "~/components/shell/error-page";
import { OFFER_UNAVAILABLE, priceAfterCoupon, pricePer } from "~/domain/coupons";
import { NOT_FOUND_MESSAGE } from "~/domain/errors";
import type { loader as rootLoader } from "~/root";
import type { CouponOffer, OfferPlan } from "~/services/coupons.server";
import { useCouponLanding } from "./use-coupon-landing";

/** A plan of the offer: its price before and after the coupon, and the way to take it. */
function OfferPlanItem({
  plan,
  description,
  hasAccount,
}: {
  plan: OfferPlan;
  description: string;
  hasAccount: boolean;
}) {
  const verb = plan.kind === "subscription" ? "Subscribe" : "Join";
  // A membership needs a set-up account: sign-up (or setup) goes on to this plan's payment.
  const to =
    plan.kind === "subscription" && !hasAccount
      ? `/signup?plan=${encodeURIComponent(plan.id)}`
      : `/subscription?plan=${encodeURIComponent(plan.id)}`;
  const headingId = `plan-${plan.id}`;
  return (
    <li className="offer-plan">
      <h2 id={headingId}>{plan.title}</h2>
      {plan.list_amount !== null && plan.amount !== null ? (
        <dl className="offer-prices">
          <dt>Price</dt>
          <dd>
            <s>{pricePer(plan.list_amount, plan.currency, plan.interval)}</s>
          </dd>
          <dt>With this offer</dt>
          <dd>
            <strong>
              {priceAfterCoupon({
                listAmountCents: plan.list_amount,
                amountCents: plan.amount,
                couponPayments: plan.coupon_payments,
                currency: plan.currency,
                interval: plan.interval,
              })}
            </strong>
          </dd>
        </dl>
      ) : (
        <p>An amount you choose, {description}.</p>
      )}
      <Link className="button button-primary" to={to} aria-label={`${verb}: ${plan.title}`}>
        {verb}
      </Link>
    </li>
  );
}

/**
 * /c/{slug}: the group's welcome, the offer, and its plans priced before and after the
 * coupon. Shown first as the server loaded it, then as the refreshed load answers; a
 * member who has a membership is told so instead.
 */
export function CouponLanding({ offer: first, subscribed }: { offer: CouponOffer | null; subscribed: boolean }) {
  const session = useRouteLoaderData<typeof rootLoader>("root")?.session ?? null;
  const { offer, status } = useCouponLanding(first, subscribed, session);
  if (status === "member" || !offer) {
    return (
      <section className="card" aria-labelledby="offer-title">
        <h1 id="offer-title">You already have a membership</h1>
        <p>
          This offer is for new members. <Link to="/profile">See your membership in your profile</Link>.
        </p>
      </section>
    );
  }
  if (status === "unavailable") {
    return (
      <ErrorCard status={404} message={NOT_FOUND_MESSAGE}>
        {OFFER_UNAVAILABLE}
      </ErrorCard>
    );
  }
  const { discount } = offer;
  return (
    <section className="card" aria-labelledby="offer-title" aria-busy={status === "refreshing" || undefined}>
      {discount.group_name ? <p className="muted">{discount.group_name}</p> : null}
      <h1 id="offer-title">{discount.welcome_message ?? "Welcome"}</h1>
      <p className="lead">
        Your offer: <strong>{discount.description}</strong>.
      </p>
      <ul className="offer-plans">
        {offer.plans.map((plan) => (
          <OfferPlanItem
            key={plan.id}
            plan={plan}
            description={discount.description}
            hasAccount={session !== null && !session.needsSetup}
          />
        ))}
      </ul>
      {session ? null : (
        <p>
          Already a member? <Link to="/login">Login</Link>
        </p>
      )}
    </section>
  );
}
