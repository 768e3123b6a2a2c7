import type { LoaderFunctionArgs } from "@remix-run/node";
import { publicConfig, type AppConfig } from "~/config/config.server";
import { readOnly } from "~/lib/json-body.server";
import { cacheableJson } from "~/lib/cacheable-json.server";
import { appServices } from "~/services/app.server";

const answers = new WeakMap<AppConfig, ReturnType<typeof cacheableJson>>();

/**
 * GET /api/config: the environment values of spec §3 "Config values". Every page load asks
 * for it, and it changes only with a new configuration: the browser keeps it for a minute and
 * then asks again with its ETag, which a 304 answers.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { config } = await appServices(context);
  let answer = answers.get(config);
  if (!answer) {
    answer = cacheableJson(publicConfig(config), "public, max-age=60");
    answers.set(config, answer);
  }
  return answer(request);
}

export const action = readOnly;
