import type { AppLoadContext } from "@remix-run/node";
import { pino } from "pino";
import { bootApp } from "~/boot.server";
import { loadConfig } from "~/config/config.server";
import type { AppServices } from "~/context";

let bare: Promise<AppServices> | undefined;
type Stoppable = { stop(): Promise<void> };
let alsoOnBareBoot: ((services: AppServices) => Promise<Stoppable>) | undefined;

/**
 * What a bare `remix-serve` starts beside the services it boots: the job runner, which sits
 * above every service and so is handed in from the top of the app (entry.server.tsx).
 */
export function onBareBoot(start: (services: AppServices) => Promise<Stoppable>) {
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
    const logger = pino({ level: config.logLevel, base: { service: "memberhall" } });
    const services = await bootApp(config, logger);
    const runner = await alsoOnBareBoot?.(services);
    // remix-serve closes its HTTP server on these signals; the runner's timers and the
    // database would keep the process alive after it, so they are stopped too.
    const stop = async () => {
      try {
        await runner?.stop();
        await Promise.all([services.viewers.stop(), services.reference.stop()]);
        await services.database.close();
      } catch (error) {
        logger.error({ err: error }, "shutdown failed");
        process.exitCode = 1;
      }
    };
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void stop());
    return services;
  })();
  return bare;
}
