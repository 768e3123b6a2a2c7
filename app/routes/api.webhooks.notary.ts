import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { withApiErrors } from "~/lib/http.server";
import { postOnly, readCappedText } from "~/lib/json-body.server";
import { appServices } from "~/services/app.server";
import { receiveNotaryWebhook } from "~/services/notary/events.server";

const BODY_LIMIT = 1024 * 1024;

/**
 * POST /api/webhooks/notary: the notary's (Proof's) events, checked on the raw body. 400 for a
 * bad signature; 404 while the sandbox is the notary (it delivers its own); 200 once stored;
 * 500 when applying fails, so the provider delivers it again.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return postOnly();
  const services = await appServices(context);
  return withApiErrors(async () => {
    const raw = await readCappedText(request, BODY_LIMIT);
    if (raw === null) return json({ error: `The body exceeds ${BODY_LIMIT} bytes` }, { status: 413 });
    return json(await receiveNotaryWebhook(services, raw, request.headers));
  });
}

export const loader = () => postOnly();
