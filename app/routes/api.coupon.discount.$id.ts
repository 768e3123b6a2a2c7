import type { LoaderFunctionArgs } from "@remix-run/node";
import { discountIdOf } from "~/domain/coupon-forms";
import { notFound } from "~/domain/errors";
import { readOnly } from "~/lib/json-body.server";
import { adminCouponRead, discountApi } from "~/services/coupons-admin.server";

/** GET /api/coupon/discount/{coupon_discount_id} (spec §7): coupon_discount, coupons, plans. */
export const loader = ({ request, params, context }: LoaderFunctionArgs) =>
  adminCouponRead(request, context, async (db) => {
    const id = discountIdOf(params.id);
    if (id === null) throw notFound();
    return discountApi(db, id);
  });

export const action = readOnly;
