import type { SerializeFrom } from "@remix-run/node";
import type { landingDiscount } from "~/services/coupons.server";
import { JoinLinks } from "./join-links";

type Discount = SerializeFrom<typeof landingDiscount>;

/** A coupon's landing page: the group's welcome and the verified offer. */
export function CouponLanding({ discount }: { discount: Discount }) {
  return (
    <section className="card" aria-labelledby="offer-title">
      <p className="muted">{discount.groupName}</p>
      <h1 id="offer-title">{discount.welcomeMessage ?? "Welcome"}</h1>
      <p className="lead">
        Your offer: <strong>{discount.description}</strong>
        {discount.plans.length ? ` on ${discount.plans.map((p) => p.title.toLowerCase()).join(" or ")}` : ""}.
      </p>
      <JoinLinks signupLabel="Sign up with this offer" />
    </section>
  );
}
