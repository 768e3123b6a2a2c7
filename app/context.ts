import type { AppConfig } from "./config/config.server";
import type { Database, DatabaseHandle } from "./db/client.server";
import type { Logger } from "pino";

/** What the server hands every loader and action (Remix `context`). */
export type AppServices = {
  config: AppConfig;
  database: DatabaseHandle;
  db: Database;
  logger: Logger;
};

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Absent only under a bare remix-serve; read it through appServices(context). */
    app?: AppServices;
    cspNonce: string;
    requestId: string;
    /** The client's address, as the proxy settings allow reading it. */
    clientIp: string;
  }
}
