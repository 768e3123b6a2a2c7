import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { publicConfig } from "~/config/config.server";

/** GET /api/config: the environment values of spec §3 "Config values". */
export async function loader({ context }: LoaderFunctionArgs) {
  return json(publicConfig(context.app.config), { headers: { "Cache-Control": "no-cache" } });
}
