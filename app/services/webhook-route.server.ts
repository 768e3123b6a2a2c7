import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import type { AppServices } from "~/context";
import { withApiErrors } from "~/lib/http.server";
import { postOnly, readCappedText } from "~/lib/json-body.server";
import { appServices } from "./app.server";

const BODY_LIMIT = 1024 * 1024;

/**
 * The action of a provider's webhook route: the raw body (the signature is over it, so it is
 * read as text, up to 1 MiB: 413 past it) and the headers handed to `receive`, its answer sent
 * as JSON. `receive` throws invalid for a bad signature (400); any other failure is a 500, so
 * the provider delivers it again.
 */
export function webhookAction(receive: (services: AppServices, rawBody: string, headers: Headers) => Promise<unknown>) {
  return async ({ request, context }: ActionFunctionArgs) => {
    if (request.method !== "POST") return postOnly();
    const services = await appServices(context);
    return withApiErrors(async () => {
      const raw = await readCappedText(request, BODY_LIMIT);
      if (raw === null) return json({ error: `The body exceeds ${BODY_LIMIT} bytes` }, { status: 413 });
      return json(await receive(services, raw, request.headers));
    });
  };
}
