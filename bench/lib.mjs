import { randomBytes } from "node:crypto";
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "../scripts/server-flags.mjs";

/** What the benchmarks share: free ports, the app's process, signing in, memory, percentiles. */

export const ROOT = path.resolve(import.meta.dirname, "..");
export const DEMO_PASSWORD = "memberhall-demo";

export const log = (...parts) => process.stderr.write(`${parts.join(" ")}\n`);

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts a process and waits until `url` answers. */
export async function startProcess(name, args, { cwd = ROOT, env, url }) {
  const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH, ...env }, stdio: "pipe" });
  let output = "";
  child.stdout.on("data", (c) => (output += c));
  child.stderr.on("data", (c) => (output += c));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited:\n${output}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${name} did not start:\n${output}`);
    await sleep(200);
  }
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The resident memory of a process, in MB (Linux). */
export function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return null;
  }
}

export async function startApp({ dataDir, databaseUrl, env: extra = {} }) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const metricsToken = randomBytes(24).toString("hex");
  const env = {
    NODE_ENV: "production",
    DEMO: "1",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    METRICS_TOKEN: metricsToken,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extra,
  };
  const app = await startProcess("the app", [...SERVER_NODE_FLAGS, "dist/server.js"], {
    env,
    url: `${url}/api/config`,
  });
  return { ...app, url, metricsToken };
}

/**
 * The server's longest event-loop delay, in ms, since it was last asked: prom-client's
 * monitorEventLoopDelay histogram, which each read of /metrics starts afresh. Asked once
 * before a piece of work (to start it) and once after, it is that work's longest hold.
 */
export async function eventLoopDelayMs(app) {
  const response = await fetch(`${app.url}/metrics`, { headers: { authorization: `Bearer ${app.metricsToken}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  const max = /^nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
  if (!max) throw new Error("/metrics has no nodejs_eventloop_lag_max_seconds");
  return Math.round(Number(max[1]) * 1000);
}

/**
 * The scale seed (npm run seed:scale) into a data directory (PGlite) or a database
 * (PostgreSQL), on top of the demo data: `members` members and `entries` NoL entries, by
 * default SCALE_MEMBERS / SCALE_ENTRIES or 100,000 and 1,000,000. Returns its seconds.
 */
export function seedScale({ dataDir, databaseUrl, members, entries }) {
  log(`filling ${databaseUrl ? "PostgreSQL" : "PGlite"} with the scale seed${members ? ` (${members} members)` : ""}…`);
  const started = Date.now();
  const result = spawnSync(process.execPath, ["dist/server.js"], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      DEMO: "1",
      LOG_LEVEL: "warn",
      DATA_DIR: dataDir,
      MEMBERHALL_TASK: "seed-scale",
      SCALE_MEMBERS: String(members ?? process.env.SCALE_MEMBERS ?? "100000"),
      SCALE_ENTRIES: String(entries ?? process.env.SCALE_ENTRIES ?? "1000000"),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
  });
  if (result.status !== 0) throw new Error("the scale seed failed");
  return Math.round((Date.now() - started) / 1000);
}

/** Signs a demo member in and returns their session cookie. */
export async function signIn(url, login) {
  const response = await fetch(`${url}/login`, {
    method: "POST",
    headers: { origin: url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ login, password: DEMO_PASSWORD }),
    redirect: "manual",
  });
  await response.arrayBuffer();
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("mh_session="));
  if (!cookie) throw new Error(`could not sign in as ${login} (${response.status})`);
  return cookie.split(";")[0];
}

/** A fresh PostgreSQL database for the run, made from DATABASE_URL's server. */
export async function freshPostgres(databaseUrl) {
  const pg = (await import("pg")).default;
  const name = `memberhall_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
