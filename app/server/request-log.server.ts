import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";
import { isStaticAsset, redactUrl } from "~/domain/requests";

const REQUEST_ID = /^[\w.-]{1,64}$/;

/** The id a request is known by in the logs and in its answer's X-Request-Id. */
export function requestIdOf(res: Response): string {
  return (res.locals as { requestId: string }).requestId;
}

/**
 * Each request's id and its log line. The id is the client's X-Request-Id when it is a
 * well-formed one (a proxy's trace id), else a new one; it goes back in the answer. The line
 * is written when the answer has gone (`request completed`, with the status and the time it
 * took) or when the client left first (`request aborted`), at info, warn for a method no
 * route takes (501, the client's doing) and error for the server's failures. The health
 * check is not logged. Nothing is built for a line whose level is off. With `quietAssets`
 * (the demo's terminal), a static file served is not logged either; one that fails is.
 */
export function requestLog(logger: Logger, { quietAssets = false }: { quietAssets?: boolean } = {}) {
  return (req: Request, res: Response, next: NextFunction) => {
    const given = req.headers["x-request-id"];
    const id = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
    (res.locals as { requestId: string }).requestId = id;
    res.setHeader("X-Request-Id", id);
    if (req.url === "/healthz") return next();
    const started = performance.now();
    res.once("close", () => {
      const status = res.statusCode;
      const level = status === 501 ? "warn" : status >= 500 ? "error" : "info";
      if (!logger.isLevelEnabled(level)) return;
      if (quietAssets && status < 400 && isStaticAsset(req.originalUrl)) return;
      const entry = {
        req: { id, method: req.method, url: redactUrl(req.originalUrl) },
        res: { statusCode: status },
        responseTime: Math.round(performance.now() - started),
      };
      logger[level](entry, res.writableFinished ? "request completed" : "request aborted");
    });
    next();
  };
}
