import { postOnly } from "~/lib/json-body.server";
import { receiveMailWebhook } from "~/services/mailings/events.server";
import { webhookAction } from "~/services/webhook-route.server";

/**
 * POST /api/webhooks/mailhouse: the mail house's (Lob's) letter events, checked on the raw body.
 * 400 for a bad or stale signature (and for any delivery while the sandbox, which delivers its
 * own events, is the mail house); 200 once applied, and again for a repeat, which changes
 * nothing; 500 when applying fails, so the mail house delivers it again.
 */
export const action = webhookAction(receiveMailWebhook);

export const loader = () => postOnly();
