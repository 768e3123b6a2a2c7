import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { notFound } from "~/domain/errors";
import { errorJson, withApiErrors } from "~/lib/http.server";
import { appServices } from "~/services/app.server";
import { secretMatches } from "~/lib/same-secret.server";
import { receiveCognitoEntry } from "~/services/cognito-entries.server";
import { postOnly, readJsonText } from "~/lib/json-body.server";

const BODY_LIMIT = 512 * 1024;

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
  return withApiErrors(async () =>
    json(await receiveCognitoEntry(services, event, await readJsonText(request, BODY_LIMIT))),
  );
}

export async function loader() {
  return errorJson(notFound("Not found"));
}
