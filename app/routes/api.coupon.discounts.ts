import type { LoaderFunctionArgs } from "@remix-run/node";
import { readOnly } from "~/lib/json-body.server";
import { adminCouponRead, discountsApi } from "~/services/coupons-admin.server";

/** GET /api/coupon/discounts (spec §7): coupon_discounts, coupons, plans. */
export const loader = ({ request, context }: LoaderFunctionArgs) => adminCouponRead(request, context, discountsApi);

export const action = readOnly;
