import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { appServices } from "~/services/app.server";
import { redeemHandoff } from "~/services/learning-site.server";
import { sessionState, withState } from "~/services/session.server";
import { devicePublicKeySchema } from "~/services/state-header.server";

/**
 * GET /api/login/lrm-auth?auth_code=…&hash=… with the device's public key in the
 * `device-key` header: the learning site's hand-off, answered with the new session state.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const device = devicePublicKeySchema.safeParse(request.headers.get("device-key"));
  if (!device.success)
    return json({ error: "The device-key header must carry the device's public key" }, { status: 400 });
  const result = await redeemHandoff(services, new URL(request.url).searchParams, {
    devicePublicKey: device.data.toLowerCase(),
    ip: context.clientIp,
    userAgent: request.headers.get("user-agent"),
  });
  if (!result.ok) return json({ error: result.error }, { status: result.status });
  const response = json(
    { state: sessionState(result.viewer, services.config) },
    { headers: { "Cache-Control": "no-store" } },
  );
  return withState(response, request, result.viewer, services.config);
}
