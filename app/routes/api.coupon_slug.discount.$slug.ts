import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { OFFER_UNAVAILABLE } from "~/domain/coupons";
import { notFound } from "~/domain/errors";
import { withApiErrors } from "~/lib/http.server";
import { readOnly } from "~/lib/json-body.server";
import { couponOffer } from "~/services/coupons.server";
import { optionalViewer, withState } from "~/services/session.server";

/**
 * GET /api/coupon_slug/discount/{coupon_slug}?refresh= (spec §7), open to visitors: the
 * discount and its plans priced before and after the coupon. Caches may keep the answer
 * a minute; with `refresh` they may not (the landing page's second load, spec §4).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await optionalViewer(request, context);
  return withApiErrors(async () => {
    const offer = await couponOffer(services.db, params.slug ?? "");
    if (!offer) throw notFound(OFFER_UNAVAILABLE);
    const refresh = new URL(request.url).searchParams.get("refresh");
    const fresh = refresh !== null && refresh !== "0" && refresh !== "false";
    const response = json(offer, { headers: { "Cache-Control": fresh ? "no-store" : "public, max-age=60" } });
    return viewer ? withState(response, request, viewer, services.config) : response;
  });
}

export const action = readOnly;
