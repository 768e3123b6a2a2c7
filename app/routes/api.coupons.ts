import type { LoaderFunctionArgs } from "@remix-run/node";
import { readOnly } from "~/lib/json-body.server";
import { adminCouponRead, couponsApi } from "~/services/coupons-admin.server";

/** GET /api/coupons (spec §7): coupons, plans, and coupon_plans (each coupon's plans). */
export const loader = ({ request, context }: LoaderFunctionArgs) => adminCouponRead(request, context, couponsApi);

export const action = readOnly;
