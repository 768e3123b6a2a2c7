import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { discountBodySchema } from "~/domain/coupon-forms";
import { withApiErrors } from "~/lib/http.server";
import { postOnly, readJson } from "~/lib/json-body.server";
import { saveDiscount } from "~/services/coupon-changes.server";
import { requireStepUpForApi } from "~/services/factors/step-up.server";
import { requireApiAdmin, withState } from "~/services/session.server";

/**
 * POST /api/coupon/discount (spec §7): creates the coupon discount, or changes the one its
 * coupon_discount_id names. { coupon_discount, update }, or 400 { error, fieldErrors }.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly();
  const { viewer, services } = await requireApiAdmin(request, context);
  requireStepUpForApi(viewer, "coupon-change");
  const body = await readJson(request, discountBodySchema);
  return withApiErrors(async () => {
    const saved = await saveDiscount(services, viewer, body.id, body.input);
    return withState(json(saved, { status: saved.update ? 200 : 201 }), request, viewer, services.config);
  });
}

export const loader = postOnly;
