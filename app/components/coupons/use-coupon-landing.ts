import { useEffect, useState } from "react";
import { api } from "~/lib/api-client";
import {
  forgetLandingCoupon,
  hasSubscription,
  keepLandingCoupon,
  landingAfterRefresh,
  pageState,
  type LandingStatus,
} from "~/lib/coupon-client";
import { storedState } from "~/lib/state-store";
import type { CouponOffer } from "~/services/coupons.server";

/**
 * A coupon landing loaded twice (spec §4): first the loader's offer, as the server rendered
 * it, then the one refreshed through /api/coupon_slug/discount/{slug}?refresh=1. A state
 * carrying sub_id resets the landing and the coupon kept in session storage.
 */
export function useCouponLanding(
  first: CouponOffer | null,
  subscribed: boolean,
  pageSession: { sub_id: string | null } | null,
): { offer: CouponOffer | null; status: LandingStatus } {
  const [offer, setOffer] = useState(first);
  const [status, setStatus] = useState<LandingStatus>(subscribed || !first ? "member" : "first");
  const slug = first?.discount.coupon_slug ?? null;
  const memberSubId = pageSession?.sub_id ?? null;

  useEffect(() => {
    setOffer(first);
    if (!slug || subscribed || hasSubscription(pageState({ sub_id: memberSubId }))) {
      forgetLandingCoupon();
      setStatus("member");
      return;
    }
    setStatus("refreshing");
    keepLandingCoupon(slug);
    let live = true;
    api<CouponOffer>(`/api/coupon_slug/discount/${encodeURIComponent(slug)}`, { query: { refresh: 1 } })
      .then((result) => {
        if (!live) return;
        const next = landingAfterRefresh(result, hasSubscription(storedState()?.core));
        if (next === "member") forgetLandingCoupon();
        if (next === "verified" && result.data) setOffer(result.data);
        setStatus(next);
      })
      .catch(() => {
        // The network failed: the first load's offer stands.
        if (live) setStatus("first");
      });
    return () => {
      live = false;
    };
  }, [first, slug, subscribed, memberSubId]);

  return { offer, status };
}
