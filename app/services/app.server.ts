import type { AppLoadContext } from "@remix-run/node";
import { pino } from "pino";
import { bootApp } from "~/boot.server";
import { loadConfig } from "~/config/config.server";
import type { AppServices } from "~/context";

let bare: Promise<AppServices> | undefined;

/**
 * The services of this request. server.ts passes them in the load context; under a bare
 * `remix-serve`, which has no load context, they are booted once from the environment.
 */
export function appServices(context: AppLoadContext): Promise<AppServices> {
  if (context.app) return Promise.resolve(context.app);
  bare ??= (async () => {
    const config = loadConfig();
    return bootApp(config, pino({ level: config.logLevel, base: { service: "memberhall" } }));
  })();
  return bare;
}
