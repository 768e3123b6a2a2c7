import type { LoaderFunctionArgs } from "@remix-run/node";
import { readOnly } from "~/lib/json-body.server";
import { adminCouponRead, couponApi } from "~/services/coupons-admin.server";

/** GET /api/coupon/{coupon_id} (spec §7): the coupon. */
export const loader = ({ request, params, context }: LoaderFunctionArgs) =>
  adminCouponRead(request, context, (db) => couponApi(db, params.couponId ?? ""));

export const action = readOnly;
