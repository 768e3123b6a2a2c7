import type { AppLoadContext } from "@remix-run/node";
import { pino } from "pino";
import { bootApp } from "~/boot.server";
import { loadConfig } from "~/config/config.server";
import type { AppServices } from "~/context";

let bare: Promise<AppServices> | undefined;
let alsoOnBareBoot: ((services: AppServices) => Promise<unknown>) | undefined;

/**
 * What a bare `remix-serve` starts beside the services it boots: the job runner, which sits
 * above every service and so is handed in from the top of the app (entry.server.tsx).
 */
export function onBareBoot(start: (services: AppServices) => Promise<unknown>) {
  alsoOnBareBoot = start;
}

/**
 * The services of this request. The production server passes them in the load context;
 * under a bare `remix-serve`, which has no load context, they are booted once from the
 * environment, at the first request, with the job runner.
 */
export function appServices(context: AppLoadContext): Promise<AppServices> {
  if (context.app) return Promise.resolve(context.app);
  bare ??= (async () => {
    const config = loadConfig();
    const services = await bootApp(config, pino({ level: config.logLevel, base: { service: "memberhall" } }));
    await alsoOnBareBoot?.(services);
    return services;
  })();
  return bare;
}
