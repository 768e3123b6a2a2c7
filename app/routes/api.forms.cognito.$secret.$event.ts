import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { invalid, notFound } from "~/domain/errors";
import { hasNul } from "~/domain/requests";
import { errorJson, withApiErrors } from "~/lib/http.server";
import { postOnly } from "~/services/api.server";
import { appServices } from "~/services/app.server";
import { receiveCognitoEntry, secretMatches } from "~/services/cognito-entries.server";
import { readCappedText } from "~/services/errors.server";

const BODY_LIMIT = 512 * 1024;

/** The body as JSON: a 413 when too large, a 400 when it is not JSON. */
async function readDelivery(request: Request): Promise<unknown> {
  const text = await readCappedText(request, BODY_LIMIT);
  if (text === null) throw json({ error: "The entry is too large" }, { status: 413 });
  if (hasNul(text)) throw invalid("The body contains a character that cannot be used");
  try {
    return JSON.parse(text);
  } catch {
    throw invalid("The body is not valid JSON");
  }
}

/** POST /api/forms/cognito/{secret}/{submit|update}: Cognito Forms' entry webhooks. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const event = params.event;
  // A wrong secret or event looks like no endpoint at all.
  if (
    !secretMatches(params.secret ?? "", services.config.cognitoWebhookSecret) ||
    (event !== "submit" && event !== "update")
  ) {
    return errorJson(notFound("Not found"));
  }
  if (request.method !== "POST") return postOnly();
  return withApiErrors(async () => json(await receiveCognitoEntry(services, event, await readDelivery(request))));
}

export async function loader() {
  return errorJson(notFound("Not found"));
}
