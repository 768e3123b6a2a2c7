import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { CouponLanding } from "~/components/community/coupon-landing";
import { safeRedirectPath } from "~/domain/guard";
import { withPageErrors } from "~/lib/http.server";
import { appServices } from "~/services/app.server";
import { landingDiscount } from "~/services/coupons.server";
import { readForm } from "~/lib/submission.server";
import { siteCookies } from "~/services/session.server";

export const handle = { layout: "logo" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.discount.groupName ?? "Your offer" }];

/** A coupon landing page: it verifies the offer and keeps it for sign-up and the banner. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const cookies = siteCookies(services.config);
  const kept = await cookies.coupon.parse(request.headers.get("cookie"));
  const slug = params.couponSlug ?? (typeof kept === "string" ? kept : null);
  const discount = await withPageErrors(() => landingDiscount(services.db, slug));
  return json({ discount }, { headers: { "Set-Cookie": await cookies.coupon.serialize(discount.slug) } });
}

const dismissSchema = z.object({
  intent: z.literal("dismiss-coupon"),
  slug: z.string().max(64),
  redirectTo: z.string().max(2_000),
});

/** POST /c: dismisses the coupon banner (it stays on /c/ and /signup pages). */
export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const parsed = dismissSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return json({ error: "Nothing to dismiss" }, { status: 400 });
  return redirect(safeRedirectPath(parsed.data.redirectTo), {
    headers: { "Set-Cookie": await siteCookies(services.config).couponDismissed.serialize(parsed.data.slug) },
  });
}

export default function Coupon() {
  const { discount } = useLoaderData<typeof loader>();
  return <CouponLanding discount={discount} />;
}
