import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { AppLoadContext } from "@remix-run/node";
import { pino } from "pino";
import { servicesFor } from "~/boot.server";
import { loadConfig } from "~/config/config.server";
import type { DatabaseHandle } from "~/db/client.server";

/** The data directories of the contexts made here (their secrets file), removed when the process ends. */
const shared = globalThis as { memberhallContextDirs?: Set<string> };
const firstInProcess = !shared.memberhallContextDirs;
const madeDirs = (shared.memberhallContextDirs ??= new Set<string>());
if (firstInProcess) {
  process.once("exit", () => {
    for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
  });
}

/** The load context a loader or action gets from the server, over a test database. */
export function testContext(database: DatabaseHandle, env: Record<string, string> = {}): AppLoadContext {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "memberhall-ctx-"));
  madeDirs.add(dataDir);
  const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir, ...env });
  return {
    app: servicesFor(config, database, pino({ level: "silent" })),
    cspNonce: "test-nonce",
    requestId: "test-request",
    clientIp: "203.0.113.7",
  };
}

export function loaderArgs(context: AppLoadContext, url: string, params: Record<string, string> = {}) {
  return { request: new Request(new URL(url, "http://localhost")), params, context };
}
