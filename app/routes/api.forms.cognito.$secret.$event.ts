import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { hasNul } from "~/domain/requests";
import { appServices } from "~/services/app.server";
import { receiveCognitoEntry, secretMatches } from "~/services/cognito-entries.server";
import { readCappedText } from "~/services/errors.server";

const BODY_LIMIT = 512 * 1024;

/** POST /api/forms/cognito/{secret}/{submit|update}: Cognito Forms' entry webhooks. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  // A wrong secret or event looks like no endpoint at all.
  if (
    !secretMatches(params.secret ?? "", services.config.cognitoWebhookSecret) ||
    (params.event !== "submit" && params.event !== "update")
  ) {
    return json({ error: "Not found" }, { status: 404 });
  }
  if (request.method !== "POST") return json({ error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
  const text = await readCappedText(request, BODY_LIMIT);
  if (text === null) return json({ error: "The entry is too large" }, { status: 413 });
  if (hasNul(text)) return json({ error: "The body contains a character that cannot be used" }, { status: 400 });
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return json({ error: "The body is not valid JSON" }, { status: 400 });
  }
  const outcome = await receiveCognitoEntry(services, params.event, payload);
  return json(outcome.body, { status: outcome.status });
}

export async function loader() {
  return json({ error: "Not found" }, { status: 404 });
}
