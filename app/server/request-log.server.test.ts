import type { AddressInfo } from "node:net";
import express from "express";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { requestLog } from "./request-log.server";

const servers: { close(): unknown }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A server with the request log in front of a page, static files and a missing file; its log lines. */
async function loggedRequests(options: { quietAssets?: boolean }, paths: string[]) {
  const lines: { msg: string; req: { url: string }; res: { statusCode: number } }[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const app = express();
  app.use(requestLog(logger, options));
  app.get("/build/missing.js", (_req, res) => res.status(404).end());
  app.get(/.*/, (_req, res) => res.send("ok"));
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  for (const path of paths) await (await fetch(`http://127.0.0.1:${port}${path}`)).text();
  // A line is written when its answer has gone, so the last ones may follow the fetches.
  return () => lines.map((line) => `${line.res.statusCode} ${line.req.url}`);
}

const PATHS = [
  "/",
  "/build/root-ABC123.js",
  "/build/_assets/app-XYZ.css",
  "/favicon.ico",
  "/fonts/inter.woff2",
  "/robots.txt",
  "/nol/creator/traffic-stop",
  "/nol/creator/traffic-stop/proof-of-service.pdf?version=v",
  "/api/config",
  "/build/missing.js",
];

describe("the request log", () => {
  it("logs every request by default, static files too", async () => {
    const logged = await loggedRequests({}, PATHS);
    await expect
      .poll(() => logged())
      .toEqual(PATHS.map((path) => `${path === "/build/missing.js" ? 404 : 200} ${path}`));
  });

  it("in the demo's terminal, logs pages, documents, API calls and failures but not the static files served", async () => {
    const logged = await loggedRequests({ quietAssets: true }, PATHS);
    await expect
      .poll(() => logged())
      .toEqual([
        "200 /",
        "200 /nol/creator/traffic-stop",
        "200 /nol/creator/traffic-stop/proof-of-service.pdf?version=v",
        "200 /api/config",
        "404 /build/missing.js",
      ]);
  });
});
