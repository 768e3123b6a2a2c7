import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { withApiErrors } from "~/lib/http.server";
import { appServices } from "~/services/app.server";
import { redeemHandoff } from "~/services/learning-site.server";
import { clientMeta, sessionState, withState } from "~/services/session.server";
import { readOnly } from "~/lib/json-body.server";

/**
 * GET /api/login/lrm-auth?auth_code=…&hash=… with the device's public key in the
 * `device-key` header: the learning site's hand-off, answered with the new session state.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  return withApiErrors(async () => {
    const client = clientMeta(request, context.clientIp, request.headers.get("device-key"));
    const viewer = await redeemHandoff(services, new URL(request.url).searchParams, client);
    const response = json(
      { state: sessionState(viewer, services.config) },
      { headers: { "Cache-Control": "no-store" } },
    );
    return withState(response, request, viewer, services.config);
  });
}

export const action = readOnly;
