import { readdirSync } from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import type { AppServices } from "~/context";
import {
  crossSiteWrite,
  dependsOnSession,
  firstForwardedHost,
  hasNul,
  normalisedPath,
  originFormTarget,
  sessionFreePath,
  UNSUPPORTED_METHOD_MESSAGE,
  unsupportedMethod,
} from "~/domain/requests";
import { memberPageKey, visitorPageKey } from "~/domain/kept-pages";
import { countQueries, queriesTiming, renderKeepable } from "~/db/query-count.server";
import { limitBodies } from "~/lib/body-limit.server";
import { cspNonce } from "~/lib/crypto.server";
import {
  renderUnavailable,
  sawDatabaseUnavailable,
  UNAVAILABLE_MESSAGE,
  UNAVAILABLE_RETRY_SECONDS,
} from "~/lib/database-unavailable.server";
import { remixRequest, sendResponse, trustsForwarding } from "~/lib/remix-express.server";
import { pageServices } from "~/services/owned-cache.server";
import { siteCookies } from "~/services/session.server";
import { metricsHandler, routeLabeler, timeRequests } from "./metrics-endpoint.server";
import { requestIdOf, requestLog } from "./request-log.server";
import { securityHeaders } from "./security-headers.server";
import { nextTurn } from "./turns.server";
import { createKeptPages, type KeptPages, type Rendered } from "./kept-pages.server";

const SERVER_FAILED_MESSAGE = "Something went wrong on our side. Please try again.";

type Locals = { cspNonce: string; shuttingDown?: boolean };
const locals = (res: Response) => res.locals as Locals;

/** What the server is serving: the build the launcher loaded and the project folder it sits in. */
export type Served = { build: ServerBuild; root: string };

/** The app's HTTP server: headers, limits, health, static files, then the Remix handler. */
export function createApp(services: AppServices, { build, root }: Served, state: { shuttingDown: boolean }) {
  const { config, database, logger } = services;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);
  // Nothing reads Express's parsed query (the router reads the URL): not parsed per request.
  app.set("query parser", false);

  // The demo's terminal (a person reading text lines) logs pages, API calls and errors, not
  // each file a page loads; a deployment's JSON log keeps every request.
  app.use(requestLog(logger, { quietAssets: config.demo && config.logFormat === "text" }));

  // The few files at public/'s top (favicon, robots.txt), listed once: a page or an API call
  // never costs a look at the disk.
  const publicFiles = new Set(
    readdirSync(path.join(root, "public"), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${entry.name}`),
  );
  app.use(
    timeRequests(services.metrics, routeLabeler(build.routes, new Set([...publicFiles, "/healthz", "/metrics"]))),
  );

  // Everything after this reads the target as a path: the absolute form naming this host is
  // its page, any other form is refused here rather than failing the router's URL.
  app.use((req, res, next) => {
    const target = originFormTarget(req.url, req.headers.host);
    if (target === null) {
      res.status(400).type("text/plain").send("The request target must be a path on this site.");
      return;
    }
    req.url = req.originalUrl = target;
    next();
  });

  app.use((req, res, next) => {
    locals(res).cspNonce = cspNonce();
    // While draining, ask every client to open its next request elsewhere.
    if (state.shuttingDown) res.setHeader("Connection", "close");
    // An answer sent before its request's body was read (a refusal, a 405) leaves the rest of
    // the body on the connection, where the next request would wait behind it: it is read and
    // dropped, as Node does for a body nobody touched. The body limits below cap what that reads.
    // A request without a body has nothing left to read.
    if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined)
      res.on("finish", () => {
        if (req.complete || req.destroyed) return;
        req.removeAllListeners("data");
        req.resume();
      });
    next();
  });

  app.use((req, res, next) => {
    if (!unsupportedMethod(req.method)) return next();
    res.status(501);
    if (req.path.startsWith("/api/")) res.json({ error: UNSUPPORTED_METHOD_MESSAGE });
    else res.type("text/plain").send(`${UNSUPPORTED_METHOD_MESSAGE}.`);
  });

  // A path no page can have (broken percent-encoding, a backslash) is a missing page. It
  // goes to the router as a plain unknown path, so it gets the shell's 404 like any other;
  // as it was, it made the static files fail with their own error page and the router's
  // URL building throw.
  app.use((req, _res, next) => {
    if (normalisedPath(req.path) === null)
      req.url = req.originalUrl = req.path.startsWith("/api/") ? "/api/not-found" : "/not-found";
    next();
  });

  app.use(
    securityHeaders(
      {
        payments: config.payments,
        learningSiteUrl: config.lrmUrl,
        // The hosted forms' own scripts, styles and requests, when Cognito Forms is the provider.
        formsOrigins: config.forms === "cognito" ? [new URL(config.cognitoApiUrl).origin] : [],
        production: config.isProduction,
      },
      (res) => locals(res).cspNonce,
    ),
  );

  app.use((req, res, next) => {
    if (hasNul(req.originalUrl)) {
      res.status(400).json({ error: "The address contains a character that cannot be used" });
      return;
    }
    const write = {
      method: req.method,
      path: req.path,
      origin: req.headers.origin,
      referer: req.headers.referer,
      host: req.headers.host,
      forwardedHost: firstForwardedHost(req.headers["x-forwarded-host"]),
      trustForwarded: trustsForwarding(req),
      signed: req.headers["state-sig"] !== undefined,
    };
    if (crossSiteWrite(write)) {
      res.status(403).json({ error: "Requests from other sites cannot change anything here" });
      return;
    }
    next();
  });

  // Before the router reads anything, and so before any rate limit counts the request.
  app.use(limitBodies());

  app.use(compression());

  app.get("/healthz", async (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    if (state.shuttingDown) {
      res.status(503).json({ ok: false, db: "unknown", shuttingDown: true });
      return;
    }
    try {
      await database.ping(2_000);
      res.json({ ok: true, db: "ok" });
    } catch (error) {
      logger.warn({ err: error }, "health check: database unavailable");
      res.status(503).json({ ok: false, db: "unavailable" });
    }
  });

  // Only to the token's bearer: without a token, /metrics is served on its own port or not at all.
  if (config.metrics.token) app.get("/metrics", metricsHandler(services.metrics, config.metrics.token));

  // Fingerprinted by the compiler: safe to cache for a year.
  // A missing asset is a plain 404, never a page: the client's chunk-load handling relies on it.
  // It is answered here rather than by the static middleware's error, which Express renders
  // outside production as a page naming the file's absolute path.
  app.use(
    "/build",
    express.static(path.join(root, "public/build"), { immutable: true, maxAge: "1y", index: false }),
    (_req, res) => {
      res.status(404).type("text/plain").send("Not found");
    },
  );
  const publicStatic = express.static(path.join(root, "public"), { maxAge: "1h", index: false });
  app.use((req, res, next) => (publicFiles.has(req.path) ? publicStatic(req, res, next) : next()));

  // Whatever the router answers may show the session (the shell names the member), so no
  // cache may keep it for someone else. Decided here, once for pages, data requests and
  // the API alike, rather than in each route's headers or in the document entry, which
  // resource routes never reach; and at the moment the headers go out, so that neither a
  // route's own Cache-Control nor a session cookie set on the way can slip past it. The
  // files above answer before this and keep their caching.
  const sessionCookie = siteCookies(config).session.name;
  app.use((req, res, next) => {
    res.vary("Cookie");
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: Parameters<typeof writeHead>) {
      const setCookie = res.getHeader("Set-Cookie");
      const setCookies = Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [String(setCookie)];
      // An answer the same for everyone does not depend on the cookie that came along.
      const cookie = sessionFreePath(req.path) ? undefined : req.headers.cookie;
      const request = { cookie, state: req.headers.state !== undefined };
      if (dependsOnSession(request, setCookies, sessionCookie)) res.setHeader("Cache-Control", "no-store");
      return writeHead.apply(this, args);
    } as typeof res.writeHead;
    next();
  });

  const handleRequest = createRequestHandler(build, config.nodeEnv === "production" ? "production" : "development");
  // The pages every visitor gets the same, kept as rendered (docs/decisions/053-visitor-pages-kept.md),
  // and a signed-in member's own (docs/decisions/056-member-pages-kept.md).
  const visitorPages = createKeptPages(services.reference, {
    onServed: (kept) => services.metrics.visitorPageServed(kept),
  });
  const memberPages = createKeptPages(services.reference, {
    signedIn: true,
    ttlMs: MEMBER_PAGE_MS,
    keptMax: MEMBER_PAGES_KEPT,
    keptBytes: MEMBER_PAGE_BYTES,
    onServed: (kept) => services.metrics.memberPageServed(kept),
  });
  // What a page that may be kept reads, whether or not this render is the one to be kept.
  const keyedServices = pageServices(services);
  app.all("*", async (req, res, next) => {
    try {
      const nonce = locals(res).cspNonce;
      const hasState = req.headers.state !== undefined || req.headers["state-sig"] !== undefined;
      const page = { method: req.method, path: req.path, search: searchOf(req.originalUrl), hasState };
      const visitorKey = visitorPageKey({ ...page, hasCookie: req.headers.cookie !== undefined });
      const memberKey = visitorKey === null ? memberPageKey({ ...page, cookie: req.headers.cookie }) : null;
      const keyed: [KeptPages, string] | null =
        visitorKey !== null ? [visitorPages, visitorKey] : memberKey !== null ? [memberPages, memberKey] : null;
      const keptTiming = () => config.serverTiming && res.append("Server-Timing", queriesTiming(0));
      const ifNoneMatch = req.headers["if-none-match"];
      if (keyed && keyed[0].serveKept(keyed[1], res, { nonce, ifNoneMatch, beforeWrite: keptTiming })) return;
      // A page asked for the first time is rendered as any other answer (KeptPages.admits).
      const kept = keyed && keyed[0].admits(keyed[1]) ? keyed : null;
      // The router's work waits for its turn: the sockets are looked at between turns.
      await nextTurn();
      // A chunked body was read by limitBodies; the router reads its replay.
      const request = remixRequest(req, res, res.locals.body as Readable | undefined);
      const context = {
        app: keyed ? keyedServices : services,
        cspNonce: kept ? kept[0].standIn : nonce,
        requestId: requestIdOf(res),
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
        thisRequest: {},
      };
      // Counting follows each request's promises (AsyncLocalStorage), which costs every
      // request: only when asked for, and for a page that may be kept.
      const keepable = async (): Promise<Rendered> => {
        const { result, queries, kept: reads } = await renderKeepable(() => handleRequest(request, context));
        if (config.serverTiming) res.append("Server-Timing", queriesTiming(queries));
        return { response: result, queries, reads };
      };
      let response: globalThis.Response;
      if (kept) response = await kept[0].render(kept[1], nonce, keepable);
      else if (config.serverTiming) {
        const { result, queries } = await countQueries(() => handleRequest(request, context));
        res.append("Server-Timing", queriesTiming(queries));
        response = result;
      } else response = await handleRequest(request, context);
      // A write's own notifications are heard before its answer goes out, so the page its
      // redirect asks for next is not answered from what it changed (heard-changes.server.ts).
      if (req.method !== "GET" && req.method !== "HEAD") await caughtUp(services);
      if (response.status >= 500 && sawDatabaseUnavailable(context)) {
        await response.body?.cancel();
        // The error page is never kept: it is rendered with the answer's own nonce.
        response = await unavailable(request, () =>
          handleRequest(unavailablePage(request), renderUnavailable({ ...context, cspNonce: nonce })),
        );
      }
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  });

  // The last word on a failure outside the router: logged with its request id, answered
  // without a stack (Express's own handler prints one to stderr and, in development, to the client).
  app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    const refusal = clientError(error);
    if (refusal && !res.headersSent) {
      // The static files' own refusals (an unsatisfiable Range: 416 with its Content-Range).
      res.status(refusal.status).set(refusal.headers).type("text/plain").send(refusal.message);
      return;
    }
    logger.error({ err: error, requestId: requestIdOf(res) }, "the server failed a request");
    if (res.headersSent) return next(error);
    res.status(500);
    if (req.path.startsWith("/api/")) res.json({ error: SERVER_FAILED_MESSAGE });
    else res.type("text/plain").send(SERVER_FAILED_MESSAGE);
  });
  return app;
}

/** A member's kept page is good for 30 s at most, as a kept viewer is. */
const MEMBER_PAGE_MS = 30_000;
/** The members' kept pages at most, by count and by bytes: the oldest go first. */
const MEMBER_PAGES_KEPT = 2_000;
const MEMBER_PAGE_BYTES = 16 * 1024 * 1024;

/** Resolves once the server has heard the changes of every write committed before it, in each of its caches. */
async function caughtUp(services: AppServices): Promise<void> {
  await Promise.all([services.viewers.caughtUp(), services.reference.caughtUp(), services.owned.caughtUp()]);
}

/** The query of a request target, with its "?", or "". */
function searchOf(target: string): string {
  const at = target.indexOf("?");
  return at === -1 ? "" : target.slice(at);
}

/** An error that is the client's, as the HTTP libraries make them (http-errors: a 4xx status, meant to be shown). */
function clientError(error: unknown): { status: number; message: string; headers: Record<string, string> } | null {
  if (typeof error !== "object" || error === null) return null;
  const { status, expose, message, headers } = error as {
    status?: unknown;
    expose?: unknown;
    message?: unknown;
    headers?: unknown;
  };
  if (expose !== true || typeof status !== "number" || status < 400 || status > 499) return null;
  const named =
    typeof headers === "object" && headers !== null
      ? Object.fromEntries(
          Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
        )
      : {};
  return { status, message: typeof message === "string" ? message : "Bad request", headers: named };
}

/**
 * A request the database failed (it is down or restarting) answers 503 with Retry-After, as
 * /healthz does: the API and data requests as JSON, pages as the shell's error page.
 */
async function unavailable(request: globalThis.Request, page: () => Promise<globalThis.Response>) {
  const url = new URL(request.url);
  const headers = { "Retry-After": String(UNAVAILABLE_RETRY_SECONDS), "Cache-Control": "no-store" };
  if (url.pathname.startsWith("/api/") || url.searchParams.has("_data")) {
    return globalThis.Response.json({ error: UNAVAILABLE_MESSAGE }, { status: 503, headers });
  }
  const response = await page();
  const answer = new globalThis.Response(response.body, { status: 503, headers: response.headers });
  for (const [name, value] of Object.entries(headers)) answer.headers.set(name, value);
  return answer;
}

/** The same page asked for again as a plain GET, to render the error page. */
function unavailablePage(request: globalThis.Request): globalThis.Request {
  return new globalThis.Request(request.url, { method: "GET", headers: request.headers, signal: request.signal });
}
