import type { Logger } from "pino";
import type { AppConfig } from "./config/config.server";
import type { Database, DatabaseHandle } from "./db/client.server";
import type { Providers } from "./providers/index.server";
import type { Metrics } from "./services/metrics.server";
import type { OwnedCache } from "./services/owned-cache.server";
import type { ReferenceCache } from "./services/reference-cache.server";
import type { ViewerCache } from "./services/viewer-cache.server";

/** What the server hands every loader and action (Remix `context`). */
export type AppServices = {
  config: AppConfig;
  database: DatabaseHandle;
  db: Database;
  logger: Logger;
  /** The outside services, chosen once at boot (app/providers/index.server.ts). */
  providers: Providers;
  /** The recent viewers (viewer-cache.server.ts): kept by a running server, none by a test's services. */
  viewers: ViewerCache;
  /** The plans, causes, countries… most pages read (reference-cache.server.ts): kept by a running server, none by a test's services. */
  reference: ReferenceCache;
  /** Owners' NoL entries and the members list, as the pages kept as rendered read them (owned-cache.server.ts). */
  owned: OwnedCache;
  /** What this server counts for Prometheus (/metrics): a registry per set of services. */
  metrics: Metrics;
};

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Absent only under a bare remix-serve; read it through appServices(context). */
    app?: AppServices;
    cspNonce: string;
    requestId: string;
    /** The client's address, as the proxy settings allow reading it. */
    clientIp: string;
    /**
     * An object the server makes for this request alone, which what its loaders share is
     * kept against (the viewer of a read). Absent where one context serves several requests.
     */
    thisRequest?: object;
  }
}
