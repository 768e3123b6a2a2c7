import { createHash, timingSafeEqual } from "node:crypto";
import type { Server } from "node:http";
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import express, { type NextFunction, type Request, type Response } from "express";
import type { Metrics } from "~/services/metrics.server";

/** The label of a request no route of the app answers: the shell's 404 for pages and the API alike. */
export const UNMATCHED = "unmatched";

// The app's catch-all routes ($.tsx, api.$.ts) answer every path no other route takes, with a 404.
const CATCH_ALL = new Set(["/*", "/api/*"]);

type RouteNode = Parameters<typeof matchRoutes>[0][number];

function routeTree(routes: ServerBuild["routes"], parentId: string | undefined): RouteNode[] {
  return Object.values(routes)
    .filter((route) => route?.parentId === parentId)
    .map((route) => {
      const { id, path, index, caseSensitive } = route!;
      // The router refuses an index route that has children; Remix gives it none.
      return index
        ? { id, path, index: true, caseSensitive }
        : { id, path, caseSensitive, children: routeTree(routes, id) };
    });
}

/**
 * The label a request's path is measured under: the pattern of the build's route that answers
 * it (`/members/:userId`, never the member's id), `/build/*` for the compiled assets, the path
 * itself for the server's own few (`/healthz`, `/metrics`, public/'s files), `unmatched` for the
 * rest. So the series stay as few as the app's routes, whatever paths clients send.
 */
export function routeLabeler(routes: ServerBuild["routes"], ownPaths: ReadonlySet<string>) {
  const tree = routeTree(routes, undefined);
  return (path: string): string => {
    if (ownPaths.has(path)) return path;
    if (path.startsWith("/build/")) return "/build/*";
    const matches = matchRoutes(tree, path);
    if (!matches) return UNMATCHED;
    const pattern = `/${matches.map((match) => match.route.path ?? "").join("/")}`.replace(/\/{2,}/g, "/");
    const label = pattern.length > 1 ? pattern.replace(/\/$/, "") : pattern;
    return CATCH_ALL.has(label) ? UNMATCHED : label;
  };
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Times each request from its arrival to its answer's last byte; a request the client left is not counted. */
export function timeRequests(metrics: Metrics, routeOf: (path: string) => string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    res.once("finish", () => {
      const url = req.originalUrl;
      const query = url.indexOf("?");
      metrics.requestServed(
        {
          method: METHODS.has(req.method) ? req.method : "other",
          route: routeOf(query < 0 ? url : url.slice(0, query)),
          status: res.statusCode,
        },
        (performance.now() - started) / 1000,
      );
    });
    next();
  };
}

const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();

/**
 * Whether an Authorization header carries the token as a bearer token. The digests are
 * compared, in constant time, so neither the token's characters nor its length show in how long
 * a refusal takes.
 */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer +(.+)$/i.exec(authorization ?? "")?.[1];
  const same = timingSafeEqual(digest(given ?? ""), digest(token));
  return given !== undefined && same;
}

/** GET /metrics: the registry in Prometheus's text format; with a token, only to its bearer (else 401). */
export function metricsHandler(metrics: Metrics, token: string | undefined) {
  return async (req: Request, res: Response, next: NextFunction) => {
    res.setHeader("Cache-Control", "no-store");
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      res.status(401).type("text/plain").send("The metrics need a bearer token\n");
      return;
    }
    try {
      const body = await metrics.registry.metrics();
      // As written: Express's send() would put the charset before Prometheus's version.
      res.setHeader("Content-Type", metrics.registry.contentType);
      res.end(body);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * The metrics on a port of their own (METRICS_PORT), which serves /metrics and nothing else:
 * reachable where the operator opens it (METRICS_HOST, 127.0.0.1 unless told), never through
 * the app's proxy. A token, when set, is asked here too.
 */
export function listenForMetrics(
  metrics: Metrics,
  settings: { port: number; host: string; token: string | undefined },
): Promise<Server> {
  const app = express();
  app.disable("x-powered-by");
  app.get("/metrics", metricsHandler(metrics, settings.token));
  app.use((_req, res) => {
    res.status(404).type("text/plain").send("Not found\n");
  });
  return new Promise((resolve, reject) => {
    const server = app.listen(settings.port, settings.host, () => resolve(server)).on("error", reject);
  });
}
