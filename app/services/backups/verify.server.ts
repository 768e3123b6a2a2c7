import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { AppServices } from "~/context";
import { countDifferences, type BackupVerifyReport } from "~/domain/backups";
import { builtServerScript } from "~/lib/process.server";
import type { DumpCounts } from "./dump.server";
import { restoreAndCount } from "./restore.server";

/**
 * A test restore (decision 064): the dump just made, restored as `npm run restore` restores it
 * into a scratch database (PostgreSQL: BACKUP_VERIFY_DATABASE_URL, emptied first and dropped
 * after; embedded: a new data folder under BACKUP_DIR, removed after), its tables' rows counted
 * and compared with the snapshot's. The embedded restore runs in a child process: loading a
 * data folder would hold this server's event loop for its whole length.
 */

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const nameOf = (url: string) => decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));

/** Drops and makes the scratch database again, through a connection to the app's own server. */
async function emptyScratch(appUrl: string, scratchUrl: string, keep: boolean) {
  const scratch = nameOf(scratchUrl);
  if (!scratch || scratch === nameOf(appUrl))
    throw new Error("BACKUP_VERIFY_DATABASE_URL names the app's own database: name a scratch database");
  const client = new pg.Client({ connectionString: appUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query(`drop database if exists ${quoteIdent(scratch)} with (force)`);
    if (keep) await client.query(`create database ${quoteIdent(scratch)}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Runs the built server's restore task on `file` into `env`'s database, and reads the counts it prints. */
function restoreInChild(script: string, file: string, env: Record<string, string | undefined>, signal?: AbortSignal) {
  return new Promise<Record<string, number>>((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script, file], {
      env: { ...process.env, DATABASE_URL: undefined, ...env, MEMBERHALL_TASK: "restore", RESTORE_PRINT_COUNTS: "1" },
      stdio: ["ignore", "pipe", "pipe"],
      signal,
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const line = out.split("\n").find((text) => text.startsWith("counts "));
      if (code === 0 && line) resolve(JSON.parse(line.slice("counts ".length)) as Record<string, number>);
      else reject(new Error(err.trim().split("\n").slice(-3).join(" ") || `the restore ended with code ${code}`));
    });
  });
}

/** Restores `file` (the dump as made, not yet encrypted) into scratch and compares its rows with the dump's counts. */
export async function testRestore(
  services: AppServices,
  file: string,
  { counts: expected, notCompared }: DumpCounts,
  signal?: AbortSignal,
): Promise<BackupVerifyReport> {
  const { config, logger } = services;
  const started = Date.now();
  const report = (found: Record<string, number> | null, error: string | null): BackupVerifyReport => ({
    tables: Object.keys(expected).length,
    rows: Object.values(expected).reduce((sum, rows) => sum + rows, 0),
    differences: found ? countDifferences(expected, found, notCompared) : [],
    notCompared,
    storedCopyMatches: null,
    error,
    ms: Date.now() - started,
  });
  const scratchDir = await mkdtemp(path.join(config.backups.dir, ".restore-check-"));
  const scratchUrl = config.databaseUrl ? config.backups.verifyDatabaseUrl! : undefined;
  const script = builtServerScript();
  const log = (message: string) => logger.info(`test restore: ${message}`);
  try {
    if (scratchUrl) await emptyScratch(config.databaseUrl!, scratchUrl, true);
    const target = { dataDir: scratchDir, databaseUrl: scratchUrl, pgBinDir: config.backups.pgBinDir };
    const found =
      script && !scratchUrl
        ? await restoreInChild(script, file, { DATA_DIR: scratchDir }, signal)
        : await restoreAndCount(target, file, log);
    // The restore settles the rows its backup held as under way; it adds and removes none.
    return report(found, null);
  } catch (error) {
    return report(null, (error as Error).message);
  } finally {
    await rm(scratchDir, { recursive: true, force: true });
    if (scratchUrl)
      await emptyScratch(config.databaseUrl!, scratchUrl, false).catch((error: Error) =>
        logger.warn({ err: error }, "the test restore's scratch database could not be dropped"),
      );
  }
}
