import { once } from "node:events";
import type { Readable } from "node:stream";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@remix-run/node";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";

/**
 * Whether the request's nearest hop is a proxy TRUST_PROXY names, whose X-Forwarded-* headers
 * Express believes: the same test Express makes for req.hostname, req.protocol and req.ip.
 */
export function trustsForwarding(req: ExpressRequest): boolean {
  const trust = req.app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  return trust(req.socket.remoteAddress ?? "", 0);
}

/**
 * The router's request for an Express request, as @remix-run/express builds it; here so that
 * the server can look at the router's answer before sending it. `body` is the stream to read
 * the body from (the request itself, or a replay of it).
 */
export function remixRequest(req: ExpressRequest, res: ExpressResponse, body: Readable = req): Request {
  // req.hostname drops the port (and follows X-Forwarded-Host behind a trusted proxy only,
  // as the port must: a client's own X-Forwarded-Host names no port of this site).
  const hosts = [trustsForwarding(req) ? req.get("X-Forwarded-Host") : undefined, req.get("host")];
  const ports = hosts.map((host) => Number.parseInt(host?.split(":")[1] ?? "", 10));
  const port = ports.find((p) => Number.isSafeInteger(p) && p > 0 && p < 65_536);
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = new Headers();
  for (const [name, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    for (const value of Array.isArray(values) ? values : [values]) headers.append(name, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(url.href, {
    method: req.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: createReadableStreamFromReadable(body), duplex: "half" } : {}),
  } as RequestInit);
}

/**
 * Sends the router's answer through Express. An answer that comes in one piece (every page,
 * since pages are rendered whole, and every JSON answer) goes out with its length, headers and
 * body in one write; one that comes in pieces (a download) is streamed as it comes.
 */
export async function sendResponse(res: ExpressResponse, response: Response) {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers.entries()) res.append(name, value);
  if (!response.body) {
    res.end();
    return;
  }
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) {
    res.flushHeaders();
    await writeReadableStreamToWritable(response.body, res);
    return;
  }
  const reader = response.body.getReader();
  try {
    const first = await reader.read();
    if (first.done) {
      res.end();
      return;
    }
    const next = await reader.read();
    if (next.done) {
      if (!res.hasHeader("Content-Length")) res.setHeader("Content-Length", first.value.byteLength);
      res.end(first.value);
      return;
    }
    res.write(first.value);
    res.write(next.value);
    // A slow client's download is read no faster than it takes it: the server holds what the
    // socket's buffer holds, not the whole answer.
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      if (!res.write(chunk.value) && !res.destroyed) await once(res, "drain");
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
}
