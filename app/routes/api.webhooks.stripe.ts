import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { withApiErrors } from "~/lib/http.server";
import { postOnly, readCappedText } from "~/lib/json-body.server";
import { appServices } from "~/services/app.server";
import { receiveStripeWebhook } from "~/services/billing/webhooks.server";

const BODY_LIMIT = 1024 * 1024;

/**
 * POST /api/webhooks/stripe: Stripe's events, checked against `Stripe-Signature` on the raw
 * body (300 s tolerance). 400 for a bad signature; 200 once stored (unknown types too);
 * 500 when applying fails, so Stripe delivers it again.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly();
  const services = await appServices(context);
  return withApiErrors(async () => {
    const raw = await readCappedText(request, BODY_LIMIT);
    return json(await receiveStripeWebhook(services, raw, request.headers.get("stripe-signature")));
  });
}

export const loader = () => postOnly();
