import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { SERVER_NODE_FLAGS } from "../../scripts/server-flags.mjs";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const SERVER_BUNDLE = path.join(ROOT, "dist/server.js");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * The data directories made here: whatever a test leaves of them goes when its process ends,
 * or at the end of a file that runs in a worker thread (`afterAll(removeMadeDataDirs)`).
 */
// One set and one exit hook for the process, however many test files load this module in it.
const shared = globalThis as { memberhallServerDirs?: Set<string> };
const firstInProcess = !shared.memberhallServerDirs;
const madeDirs = (shared.memberhallServerDirs ??= new Set<string>());
export function removeMadeDataDirs() {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
  madeDirs.clear();
}
if (firstInProcess) process.once("exit", removeMadeDataDirs);

export function tempDataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "memberhall-server-"));
  madeDirs.add(dir);
  return dir;
}

/** Settings that change what a new database holds: a server given one makes its own database. */
const SEED_SETTINGS = ["NODE_ENV", "DEMO", "SEED_DEMO", "DEMO_PASSWORD", "DATABASE_URL", "DATA_DIR"];
const TEMPLATE_PREFIX = "memberhall-template-";

/**
 * A data directory made once per build as a first start makes it (migrations, the demo seed,
 * generated secrets), which a server's own directory starts as a copy of: a new embedded
 * database costs some ten seconds to make and a fraction of one to copy.
 */
function templateDataDir(): string {
  const build = readFileSync(path.join(ROOT, "dist/.source-hash"), "utf8").trim().slice(0, 16);
  const template = path.join(os.tmpdir(), `${TEMPLATE_PREFIX}${build}`);
  if (existsSync(template)) return template;
  const making = mkdtempSync(`${template}-making-`);
  const made = spawnSync(process.execPath, [SERVER_BUNDLE], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      DEMO: "1",
      DATA_DIR: making,
      LOG_LEVEL: "warn",
      MEMBERHALL_TASK: "prepare-database",
    } as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  if (made.status !== 0) throw new Error(`making the template database failed:\n${made.stdout}${made.stderr}`);
  // Another test process may have made it meanwhile: the first one made stays.
  if (existsSync(template)) rmSync(making, { recursive: true, force: true });
  else renameSync(making, template);
  // Other builds' templates go once they are a day old: another checkout may be using its own.
  for (const old of readdirSync(os.tmpdir()).filter((name) => name.startsWith(TEMPLATE_PREFIX))) {
    const dir = path.join(os.tmpdir(), old);
    if (dir !== template && !old.includes("-making-") && Date.now() - statSync(dir).mtimeMs > 86_400_000) {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return template;
}

/** A new data directory for a server: a copy of the template unless its settings seed otherwise. */
export function newDataDir(env: Record<string, string>): string {
  const dir = tempDataDir();
  if (!SEED_SETTINGS.some((name) => name in env)) cpSync(templateDataDir(), dir, { recursive: true });
  return dir;
}

export type RunningServer = {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  /** Sends the signal and resolves with the exit code once the process has ended (and its own data directory is removed). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
};

/** Starts the built production server (dist/server.js) and waits until it listens. */
export async function startServer(
  options: { env?: Record<string, string>; dataDir?: string; port?: number } = {},
): Promise<RunningServer> {
  if (!existsSync(SERVER_BUNDLE)) throw new Error("Build the app first: npm run build");
  const dataDir = options.dataDir ?? newDataDir(options.env ?? {});
  // A free port can be taken by another process before the server, which opens its database
  // first, listens on it: the server then starts again on another one.
  for (let attempt = 1; ; attempt += 1) {
    const port = options.port ?? (await freePort());
    try {
      return await launch(port, dataDir, options);
    } catch (error) {
      const taken = error instanceof PortTaken && !options.port && attempt < 3;
      if (!taken) throw error;
    }
  }
}

class PortTaken extends Error {}

/**
 * A first start makes the embedded database (some 30 s on a quiet machine) before the server
 * opens it; beside the other suites on two cores, both together have taken over a minute.
 */
export const START_WITHIN_MS = 120_000;

async function launch(
  port: number,
  dataDir: string,
  options: { env?: Record<string, string>; dataDir?: string },
): Promise<RunningServer> {
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_BUNDLE], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      // As `npm start` runs it (scripts/start.mjs): React's production build, the demo's mode.
      NODE_ENV: "production",
      DEMO: "1",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      ...options.env,
    } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start within ${START_WITHIN_MS / 1000} s:\n${output}`)),
      START_WITHIN_MS,
    );
    const onData = () => {
      if (output.includes("is listening on")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      const Failure = output.includes("EADDRINUSE") ? PortTaken : Error;
      reject(new Failure(`server exited with ${code} before listening:\n${output}`));
    });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir,
    process: child,
    output: () => output,
    exited,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      // A data directory made here is this server's alone: it goes with it (some 40 MB each).
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** Runs the server bundle expecting it to stop on its own (a refused configuration). */
export function runServerToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const dataDir = tempDataDir();
    const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, SERVER_BUNDLE], {
      cwd: ROOT,
      env: {
        NODE_ENV: "development",
        PATH: process.env.PATH ?? "",
        DATA_DIR: dataDir,
        ...env,
      } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("exit", (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      madeDirs.delete(dataDir);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Logs a demo member in through the server's login form; their session cookie (`name=value`). */
export async function logInAs(baseUrl: string, login: string, password = "memberhall-demo"): Promise<string> {
  const response = await fetch(`${baseUrl}/login`, {
    method: "POST",
    headers: { origin: baseUrl },
    body: new URLSearchParams({ login, password }),
    redirect: "manual",
  });
  await response.arrayBuffer();
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("mh_session="));
  if (!cookie) throw new Error(`${login} could not log in (${response.status})`);
  return cookie.split(";")[0]!;
}
