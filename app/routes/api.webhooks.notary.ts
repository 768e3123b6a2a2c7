import { postOnly } from "~/lib/json-body.server";
import { receiveNotaryWebhook } from "~/services/notary/events.server";
import { webhookAction } from "~/services/webhook-route.server";

/**
 * POST /api/webhooks/notary: the notary's (Proof's) events, checked on the raw body. 400 for a
 * bad signature; 404 while the sandbox is the notary (it delivers its own); 200 once stored;
 * 500 when applying fails, so the provider delivers it again.
 */
export const action = webhookAction(receiveNotaryWebhook);

export const loader = () => postOnly();
