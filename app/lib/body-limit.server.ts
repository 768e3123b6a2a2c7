import { Readable } from "node:stream";
import type { NextFunction, Request, Response } from "express";
import { IMPORT_MAX_BYTES, IMPORT_TOO_LARGE } from "~/domain/member-import";

/** A members import's upload: the file's limit, and room for the form around it. */
const IMPORT_PATH = "/members/import";
const IMPORT_BODY_LIMIT = IMPORT_MAX_BYTES + 64 * 1024;

/** A round's sign form (/nol/{form}/{cause}/sign): a drawn signature's PNG, encoded in the form, and room around it. */
const SIGN_PATH = /^\/nol\/[^/]+\/[^/]+\/sign$/;
const SIGN_BODY_LIMIT = 512 * 1024;

/** What a request body may weigh, by path: the Cognito webhook, the JSON API, a members import, a sign form, and forms. */
export function bodyLimitFor(path: string): number {
  if (path === IMPORT_PATH) return IMPORT_BODY_LIMIT;
  if (SIGN_PATH.test(path)) return SIGN_BODY_LIMIT;
  if (path.startsWith("/api/forms/cognito/")) return 512 * 1024;
  if (path.startsWith("/api/")) return 1024 * 1024;
  return 64 * 1024;
}

const TOO_LARGE = "The request is too large";

function refuse(req: Request, res: Response) {
  // Whatever is still on its way is not read; the connection is closed after the answer.
  res.setHeader("Connection", "close");
  if (req.path.startsWith("/api/")) res.status(413).json({ error: TOO_LARGE });
  else if (req.path === IMPORT_PATH) res.status(413).type("text/plain").send(IMPORT_TOO_LARGE);
  else res.status(413).type("text/plain").send(`${TOO_LARGE}.`);
}

/**
 * Caps every request body before anything parses it. A declared length past the cap is
 * refused at once. A body without one (chunked) is read here up to the cap and handed on
 * as `res.locals.body`, a stream that replays it, so the router never buffers more.
 */
export function limitBodies(limitFor: (path: string) => number = bodyLimitFor) {
  return (req: Request, res: Response, next: NextFunction) => {
    const declared = req.headers["content-length"];
    const chunked = req.headers["transfer-encoding"] !== undefined;
    if (!chunked && declared === undefined) return next();
    const limit = limitFor(req.path);
    if (!chunked) {
      if (Number(declared) > limit) return refuse(req, res);
      return next();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      done = true;
      req.off("data", onData);
      req.off("end", onEnd);
      // Drain the rest unread so the answer can reach the client.
      req.resume();
      refuse(req, res);
    };
    const onEnd = () => {
      if (done) return;
      done = true;
      req.off("data", onData);
      // The replay reads as the request for everything downstream (headers, path, socket).
      const replay = Readable.from(chunks, { objectMode: false });
      Object.setPrototypeOf(replay, req);
      res.locals.body = replay;
      next();
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", (error) => {
      if (!done) {
        done = true;
        next(error);
      }
    });
  };
}
