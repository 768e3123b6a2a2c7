import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type Request, type Response } from "express";
import helmet from "helmet";
import { pino, type Logger } from "pino";
import { pinoHttp } from "pino-http";
import { bootApp, embeddedDatabaseIsNew, prepareDatabase, seedScaleTask } from "./app/boot.server";
import { ConfigError } from "./app/config/env.server";
import { loadConfig, type AppConfig } from "./app/config/config.server";
import type { AppServices } from "./app/context";
import { frameAncestors, isDocumentPath, isFrameablePath, paymentSources } from "./app/domain/framing";
import {
  crossSiteWrite,
  dependsOnSession,
  hasNul,
  normalisedPath,
  redactUrl,
  sessionFreePath,
} from "./app/domain/requests";
import { demoLogins } from "./app/db/seed.server";
import { limitBodies } from "./app/lib/body-limit.server";
import { demoBanner } from "./app/lib/demo-banner.server";
import { textDestination } from "./app/lib/log-text.server";
import {
  renderUnavailable,
  sawDatabaseUnavailable,
  UNAVAILABLE_MESSAGE,
  UNAVAILABLE_RETRY_SECONDS,
} from "./app/lib/database-unavailable.server";
import { remixRequest, sendResponse } from "./app/lib/remix-express.server";
import { startJobs } from "./app/services/jobs.server";
import { siteCookies } from "./app/services/session.server";

// This file runs from its bundle at dist/server.js; the project root is one level up.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

type Locals = { cspNonce: string; shuttingDown?: boolean };
const locals = (res: Response) => res.locals as Locals;

const REQUEST_ID = /^[\w.-]{1,64}$/;

export function createApp(services: AppServices, build: ServerBuild, state: { shuttingDown: boolean }) {
  const { config, database, logger } = services;
  // The hosted forms' own scripts, styles and requests, when Cognito Forms is the provider.
  const formsOrigin = config.forms === "cognito" ? [new URL(config.cognitoApiUrl).origin] : [];
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustProxy);

  app.use(
    pinoHttp({
      logger,
      genReqId(req, res) {
        const given = req.headers["x-request-id"];
        const id = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === "/healthz" },
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: redactUrl(req.url),
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
    }),
  );

  app.use((req, res, next) => {
    locals(res).cspNonce = randomBytes(16).toString("base64");
    // While draining, ask every client to open its next request elsewhere.
    if (state.shuttingDown) res.setHeader("Connection", "close");
    next();
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

  // The payments provider's script, frames and API, on the card pages only; 'self' stands in elsewhere.
  const cardPageSources = (req: Request, kind: "script" | "frame" | "connect") =>
    paymentSources(pathOf(req), config.payments)[kind].join(" ") || "'self'";
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          "default-src": ["'self'"],
          "script-src": [
            "'strict-dynamic'",
            "'self'",
            (_req, res) => `'nonce-${locals(res as Response).cspNonce}'`,
            (req) => cardPageSources(req as Request, "script"),
          ],
          "style-src": ["'self'", ...formsOrigin],
          "style-src-attr": ["'unsafe-inline'"],
          "img-src": ["'self'", "data:", ...formsOrigin],
          "font-src": ["'self'", ...formsOrigin],
          "connect-src": ["'self'", ...formsOrigin, (req) => cardPageSources(req as Request, "connect")],
          // blob: the notarize page shows the preview it fetched (a PDF made for this member) in a frame.
          "frame-src": ["'self'", "blob:", ...formsOrigin, (req) => cardPageSources(req as Request, "frame")],
          "form-action": ["'self'", ...formsOrigin],
          "object-src": ["'none'"],
          "base-uri": ["'none'"],
          "frame-ancestors": [(req) => frameAncestors(pathOf(req as Request), config.lrmUrl)],
          ...(config.isProduction ? { "upgrade-insecure-requests": [] } : {}),
        },
      },
      strictTransportSecurity: config.isProduction ? { maxAge: 31_536_000, includeSubDomains: true } : false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      // X-Frame-Options cannot name an origin: frame-ancestors above governs, this only
      // backs it up for old browsers on pages that are never framed.
      xFrameOptions: false,
      crossOriginEmbedderPolicy: false,
    }),
  );
  app.use((req, res, next) => {
    const path = pathOf(req);
    if (isDocumentPath(path)) res.setHeader("X-Frame-Options", "SAMEORIGIN");
    else if (!isFrameablePath(path)) res.setHeader("X-Frame-Options", "DENY");
    next();
  });

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

  // Fingerprinted by the compiler: safe to cache for a year.
  // A missing asset is a plain 404, never a page: the client's chunk-load handling relies on it.
  // It is answered here rather than by the static middleware's error, which Express renders
  // outside production as a page naming the file's absolute path.
  app.use(
    "/build",
    express.static(path.join(ROOT, "public/build"), { immutable: true, maxAge: "1y", index: false }),
    (_req, res) => {
      res.status(404).type("text/plain").send("Not found");
    },
  );
  // The few files at public/'s top (favicon, robots.txt), listed once: a page or an API call
  // never costs a look at the disk.
  const publicFiles = new Set(
    readdirSync(path.join(ROOT, "public"), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `/${entry.name}`),
  );
  const publicStatic = express.static(path.join(ROOT, "public"), { maxAge: "1h", index: false });
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
  app.all("*", async (req, res, next) => {
    try {
      // A chunked body was read by limitBodies; the router reads its replay.
      const request = remixRequest(req, res, res.locals.body as Readable | undefined);
      const context = {
        app: services,
        cspNonce: locals(res).cspNonce,
        requestId: String(req.id),
        clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
      };
      let response = await handleRequest(request, context);
      if (response.status >= 500 && sawDatabaseUnavailable(context)) {
        await response.body?.cancel();
        response = await unavailable(request, () =>
          handleRequest(unavailablePage(request), renderUnavailable(context)),
        );
      }
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  });
  return app;
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

function pathOf(req: Request): string {
  return req.path || "/";
}

async function loadBuild(): Promise<ServerBuild> {
  const file = path.join(ROOT, "build/index.js");
  return (await import(pathToFileURL(file).href)) as ServerBuild;
}

export async function startServer(config: AppConfig, logger: Logger) {
  const services = await bootApp(config, logger);
  const jobs = await startJobs(services);
  const build = await loadBuild();
  const state = { shuttingDown: false };
  const app = createApp(services, build, state);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s)).on("error", reject);
  });
  server.keepAliveTimeout = 65_000;
  logger.info(
    { port: config.port, url: config.baseUrl, nodeEnv: config.nodeEnv, demo: config.demo },
    `memberhall is listening on ${config.baseUrl}`,
  );
  if (config.isProduction && config.mail === "outbox") {
    logger.warn("MAIL=outbox: e-mail is kept in the outbox for admins and not sent; set MAIL=smtp and SMTP_URL");
  }

  let stopping: Promise<void> | undefined;
  const stop = (signal: string) =>
    (stopping ??= (async () => {
      logger.info({ signal }, "shutting down: finishing requests in flight");
      state.shuttingDown = true;
      // The runner stops taking jobs now and lets the running ones finish while requests drain.
      const jobsStopped = jobs.stop();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => {
        logger.warn("requests still open after the shutdown timeout: closing their connections");
        server.closeAllConnections();
      }, config.shutdownTimeoutMs);
      await closed;
      clearTimeout(force);
      await jobsStopped;
      await services.providers.mail.settled();
      await services.database.close();
      logger.info("stopped");
    })());
  return { server, stop, services };
}

/** JSON lines, or short text lines for a person at a terminal (LOG_FORMAT). */
function makeLogger(config: AppConfig): Logger {
  const options = { level: config.logLevel, base: { service: "memberhall" } };
  return config.logFormat === "text" ? pino(options, textDestination()) : pino(options);
}

const PREPARE_DATABASE = "prepare-database";

/**
 * A first start makes the embedded database in a child process: the migrations and the seed
 * grow PGlite's WASM memory, which never shrinks while its instance lives, and a process's
 * memory goes back to the system when it ends. The server then opens the made database as a
 * restart would.
 */
function prepareInChild(logger: Logger): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      env: { ...process.env, MEMBERHALL_TASK: PREPARE_DATABASE },
      stdio: "inherit",
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`making the database failed (the process ended with ${code})`));
    });
    logger.info("making the embedded database");
  });
}

async function main() {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const logger = makeLogger(config);
  // The handlers are in place before the server says it listens: a signal that arrives
  // while it starts is kept and carried out as soon as there is something to stop. A
  // terminal's Ctrl-C reaches both `npm start` and this process; a repeated signal joins
  // the shutdown already under way instead of killing the process mid-drain.
  let stopServer: ((signal: string) => Promise<void>) | undefined;
  let pendingSignal: string | undefined;
  const onSignal = (signal: string) => {
    if (!stopServer) {
      pendingSignal ??= signal;
      return;
    }
    stopServer(signal).then(
      () => process.exit(0),
      (error) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => onSignal(signal));
  try {
    if (embeddedDatabaseIsNew(config)) await prepareInChild(logger);
    const started = await startServer(config, logger);
    stopServer = started.stop;
    if (config.demo && config.logFormat === "text") {
      process.stdout.write(demoBanner(config, await demoLogins(started.services.db)));
    }
  } catch (error) {
    logger.fatal({ err: error }, `could not start: ${(error as Error).message}`);
    process.exit(1);
  }
  if (pendingSignal) onSignal(pendingSignal);
}

const SEED_SCALE = "seed-scale";

if (process.env.MEMBERHALL_TASK === PREPARE_DATABASE) {
  const config = loadConfig();
  await prepareDatabase(config, makeLogger(config));
} else if (process.env.MEMBERHALL_TASK === SEED_SCALE) {
  const config = loadConfig();
  await seedScaleTask(config, makeLogger(config), {
    members: Number(process.env.SCALE_MEMBERS ?? 100_000),
    entries: Number(process.env.SCALE_ENTRIES ?? 1_000_000),
  });
} else if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  void main();
}
