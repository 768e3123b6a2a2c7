import { spawn } from "node:child_process";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import path from "node:path";
import v8 from "node:v8";
import { pino, type Logger } from "pino";
import { bootApp, embeddedDatabaseIsNew, prepareDatabase, resetFactorsTask, seedScaleTask } from "~/boot.server";
import { loadConfig, type AppConfig } from "~/config/config.server";
import { ConfigError, parseStorageEnv } from "~/config/env.server";
import { demoLogins } from "~/db/seed.server";
import { UNSUPPORTED_METHOD_MESSAGE } from "~/domain/requests";
import { demoBanner, demoReminder, remindingTerminal } from "~/lib/demo-banner.server";
import { textDestination } from "~/lib/log-text.server";
import { s3BackupStore } from "~/providers/backup-store/s3.server";
import { setServerScript } from "~/lib/process.server";
import { failInterruptedBackups } from "~/services/backups/backups.server";
import { identityFrom } from "~/services/backups/encryption.server";
import { RestoreRefused, restoreBackup, type RestoreTarget } from "~/services/backups/restore.server";
import { countsAsked, RESTORE_USAGE } from "~/services/backups/restore-source.server";
import { startJobs } from "~/services/jobs.server";
import { createApp, type Served } from "./http.server";
import { listenForMetrics } from "./metrics-endpoint.server";

/**
 * A CONNECT request asks for a tunnel, which this site never opens. Node hands it to the
 * server apart from every other request (and, unheard, drops the socket without a word): it
 * gets the same 501 that TRACE gets, then the connection closes.
 */
function refuseTunnel(_req: IncomingMessage, socket: Duplex) {
  const body = JSON.stringify({ error: UNSUPPORTED_METHOD_MESSAGE });
  socket.end(
    `HTTP/1.1 501 Not Implemented\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

async function startServer(config: AppConfig, logger: Logger, served: Served) {
  const services = await bootApp(config, logger);
  const interrupted = await failInterruptedBackups(services);
  if (interrupted > 0) logger.warn(`${interrupted} backup(s) left unfinished by a stopped server are marked failed`);
  const jobs = await startJobs(services);
  const state = { shuttingDown: false };
  const app = createApp(services, served, state);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s)).on("error", reject);
  });
  server.keepAliveTimeout = 65_000;
  server.on("connect", refuseTunnel);
  const { port: metricsPort, host: metricsHost, token: metricsToken } = config.metrics;
  const metricsServer = metricsPort
    ? await listenForMetrics(services.metrics, { port: metricsPort, host: metricsHost, token: metricsToken })
    : null;
  if (metricsServer) logger.info({ port: metricsPort, host: metricsHost }, "metrics are served on their own port");
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
      if (metricsServer) {
        metricsServer.closeAllConnections();
        await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
      }
      await jobsStopped;
      await services.providers.mail.settled();
      await Promise.all([services.viewers.stop(), services.reference.stop(), services.owned.stop()]);
      await services.database.close();
      logger.info("stopped");
    })());
  return { server, stop, services };
}

/** JSON lines, or short text lines for a person at a terminal (LOG_FORMAT), written to `out`. */
function makeLogger(config: AppConfig, out?: { write(chunk: string): unknown }): Logger {
  const options = { level: config.logLevel, base: { service: "memberhall" } };
  return config.logFormat === "text" ? pino(options, textDestination(out)) : pino(options);
}

const PREPARE_DATABASE = "prepare-database";

/**
 * A first start makes the embedded database in a child process: the migrations and the seed
 * grow PGlite's WASM memory, which never shrinks while its instance lives, and a process's
 * memory goes back to the system when it ends. The server then opens the made database as a
 * restart would.
 */
function prepareInChild(logger: Logger, script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script], {
      env: { ...process.env, MEMBERHALL_TASK: PREPARE_DATABASE },
      stdio: "inherit",
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve();
      else reject(new Error(`making the database failed (the process ended with ${code})`));
    });
    logger.info(
      "first start: making the embedded database (about half a minute, longer on a busy machine; later starts take seconds)",
    );
  });
}

async function main(launch: Launch) {
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
  // The demo's terminal shows its banner again every so often, as the log scrolls it away.
  const terminal = config.demo && config.logFormat === "text" ? remindingTerminal(process.stdout) : null;
  const logger = makeLogger(config, terminal ?? undefined);
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
    if (embeddedDatabaseIsNew(config)) await prepareInChild(logger, launch.script);
    const started = await startServer(config, logger, launch);
    stopServer = started.stop;
    if (terminal) {
      const logins = await demoLogins(started.services.db);
      process.stdout.write(demoBanner(config, logins));
      terminal.shown(demoReminder(config, logins));
    }
  } catch (error) {
    logger.fatal({ err: error }, `could not start: ${(error as Error).message}`);
    process.exit(1);
  }
  if (pendingSignal) onSignal(pendingSignal);
}

const SEED_SCALE = "seed-scale";
const RESTORE = "restore";
const MFA_RESET = "mfa-reset";

/**
 * `npm run restore -- FILE | s3://bucket/key | --latest`: the backup into the database this
 * configuration names, which must be empty; an encrypted one with the private key in
 * BACKUP_IDENTITY or BACKUP_IDENTITY_FILE, a stored one from the store S3_* names.
 * RESTORE_PRINT_COUNTS=1 (`--counts`) prints the restored tables' rows as a last line
 * `counts {json}`, for a test restore to compare. A refusal is one line on stderr and exit code
 * 2, a configuration that cannot be read 78, anything else failing exit code 1.
 */
async function restoreTask(source: string | undefined) {
  const fail = (message: string, code: number) => {
    process.stderr.write(`${message}\n`);
    process.exit(code);
  };
  if (!source) return fail(`Name the backup: ${RESTORE_USAGE}`, 2);
  let target: RestoreTarget;
  let printCounts: boolean;
  try {
    const env = parseStorageEnv(process.env);
    // The keys are asked for only when the restore reads the store: a file needs none.
    const keys =
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : null;
    target = {
      dataDir: path.resolve(env.DATA_DIR),
      databaseUrl: env.DATABASE_URL,
      pgBinDir: env.PG_BIN_DIR,
      identity: await identityFrom(process.env),
      store: {
        configured:
          env.BACKUP_STORE === "s3" && env.S3_BUCKET ? { bucket: env.S3_BUCKET, prefix: env.S3_PREFIX ?? "" } : null,
        open: keys
          ? (bucket, prefix) =>
              s3BackupStore({
                kind: "s3",
                endpoint: env.S3_ENDPOINT,
                region: env.S3_REGION,
                forcePathStyle: env.S3_FORCE_PATH_STYLE,
                ...keys,
                bucket,
                prefix,
              })
          : null,
      },
    };
    printCounts = countsAsked(process.env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message, 78);
    // The private key named cannot be read, or the flag is neither true nor false.
    return fail(`Not restored: ${(error as Error).message}`, 78);
  }
  // Ctrl-C or a stop ends the process through its exit, which removes the restore's temporary files.
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)
    process.once(signal, () => process.exit(code));
  try {
    const restored = await restoreBackup(target, source, (message) => process.stdout.write(`${message}\n`), {
      count: printCounts,
    });
    if (restored.counts) process.stdout.write(`counts ${JSON.stringify(restored.counts)}\n`);
  } catch (error) {
    if (error instanceof RestoreRefused) return fail(`Not restored: ${error.message}`, 2);
    return fail((error as Error).message, 1);
  }
}

/** What the launcher (server.ts) hands over: the build it loaded, the project folder and its own file. */
export type Launch = Served & { script: string };

/**
 * How far the JavaScript heap may grow past what the last full collection kept before the
 * next one (V8's --heap-growing-percent). V8's own factor lets a busy server's heap reach four
 * times its live data (80 MB live, 370 MB kept under the bench's load); at 50 % it stays
 * near one and a half, for some 5–10 % of throughput (docs/decisions/032-queries-and-memory-per-request.md).
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * The production server's process: the server itself, or one of the tasks a process of it is
 * started for (MEMBERHALL_TASK): making a new embedded database, seeding a community at scale,
 * restoring a backup.
 */
export async function runServerProcess(launch: Launch): Promise<void> {
  setServerScript(launch.script);
  // Read by V8 at each full collection, so it holds although the heap already exists. A
  // deployment's own flag on the command line wins (NODE_OPTIONS cannot carry it).
  if (!process.execArgv.some((arg) => /^--heap[-_]growing[-_]percent/.test(arg)))
    v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const task = process.env.MEMBERHALL_TASK;
  if (task === PREPARE_DATABASE) {
    const config = loadConfig();
    await prepareDatabase(config, makeLogger(config));
  } else if (task === RESTORE) {
    await restoreTask(process.argv[2]);
  } else if (task === MFA_RESET) {
    const config = loadConfig();
    const username = process.argv[2];
    if (!username) {
      process.stderr.write("Name the member: npm run mfa:reset -- USERNAME\n");
      process.exit(2);
    }
    const reset = await resetFactorsTask(config, makeLogger(config), username);
    if (!reset) {
      process.stderr.write(`No member is named ${username}.\n`);
      process.exit(2);
    }
    process.stdout.write(`The second factors of ${reset} are removed and their sessions ended; they were e-mailed.\n`);
  } else if (task === SEED_SCALE) {
    const config = loadConfig();
    await seedScaleTask(config, makeLogger(config), {
      members: Number(process.env.SCALE_MEMBERS ?? 100_000),
      entries: Number(process.env.SCALE_ENTRIES ?? 1_000_000),
    });
  } else {
    await main(launch);
  }
}
