import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useRouteError } from "@remix-run/react";
import { dismissCouponSchema } from "~/lib/schemas.server";
import { CouponLanding } from "~/components/coupons/landing";
import { ErrorCard } from "~/components/shell/error-page";
import { OFFER_UNAVAILABLE } from "~/domain/coupons";
import { NOT_FOUND_MESSAGE } from "~/domain/errors";
import { safeRedirectPath } from "~/domain/guard";
import { notFoundPage, pageRedirect } from "~/lib/http.server";
import { readForm } from "~/lib/submission.server";
import { appServices } from "~/services/app.server";
import { couponOffer } from "~/services/coupons.server";
import { optionalViewer, siteCookies } from "~/services/session.server";

export const handle = { layout: "logo" };

export const meta: MetaFunction<typeof loader> = ({ data, error }) => [
  { title: error ? `404 · ${NOT_FOUND_MESSAGE}` : (data?.offer?.discount.group_name ?? "Your offer") },
];

/**
 * A coupon landing page: the offer of the slug in the path (else the one kept in the
 * cookie), kept for sign-up and the banner. A member with a membership (sub_id) gets no
 * offer, and the kept coupon is dropped (spec §4).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await optionalViewer(request, context);
  const cookies = siteCookies(services.config);
  const kept = await cookies.coupon.parse(request.headers.get("cookie"));
  const slug = params.couponSlug ?? (typeof kept === "string" ? kept : null);
  const offer = slug ? await couponOffer(services.db, slug) : null;
  if (!offer) notFoundPage();
  if (viewer?.subscription) {
    const forget = await cookies.coupon.serialize("", { maxAge: 0 });
    return json({ offer: null, subscribed: true }, { headers: { "Set-Cookie": forget } });
  }
  const keep = await cookies.coupon.serialize(offer.discount.coupon_slug);
  return json({ offer, subscribed: false }, { headers: { "Set-Cookie": keep } });
}

/** POST /c: dismisses the coupon banner (it stays on /c/ and /signup pages). */
export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const parsed = dismissCouponSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return json({ error: "Nothing to dismiss" }, { status: 400 });
  return pageRedirect(request, safeRedirectPath(parsed.data.redirectTo), {
    headers: { "Set-Cookie": await siteCookies(services.config).couponDismissed.serialize(parsed.data.slug) },
  });
}

export default function Coupon() {
  const { offer, subscribed } = useLoaderData<typeof loader>();
  return <CouponLanding offer={offer} subscribed={subscribed} />;
}

/** The spec's 404 page, with a plain line saying why; any other error goes to the root's page. */
export function ErrorBoundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error) || error.status !== 404) throw error;
  return (
    <ErrorCard status={404} message={NOT_FOUND_MESSAGE}>
      {OFFER_UNAVAILABLE}
    </ErrorCard>
  );
}
