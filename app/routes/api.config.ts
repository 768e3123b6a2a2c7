import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { publicConfig } from "~/config/config.server";
import { appServices } from "~/services/app.server";
import { readOnly } from "~/lib/json-body.server";

/** GET /api/config: the environment values of spec §3 "Config values". */
export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = await appServices(context);
  return json(publicConfig(config), { headers: { "Cache-Control": "no-cache" } });
}

export const action = readOnly;
