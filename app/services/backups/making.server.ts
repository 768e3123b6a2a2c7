import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import pg from "pg";
import type { AppServices } from "~/context";
import { rowsOf } from "~/db/client.server";
import { backups } from "~/db/schema";
import { dumpedTable, verifyPassed, type BackupVerifyReport } from "~/domain/backups";
import { audit } from "../audit.server";
import {
  checkTool,
  connectionFor,
  countRows,
  dumpEmbedded,
  fileSha256,
  runTool,
  toolFailure,
  type DumpCounts,
  type RowQuery,
} from "./dump.server";
import { encryptFile } from "./encryption.server";
import { testRestore } from "./verify.server";

/**
 * Making a backup's file (decisions 043 and 064): the dump with its tables' row counts from the
 * same snapshot; a test restore of it when asked (the one moment the server can read it); age
 * encryption to the operator's key; then, with a remote store, the upload, the local copy kept
 * until the store has it.
 */

/** How often a running backup says it is alive, and how long without a word means its server died. */
export const HEARTBEAT_MS = 30_000;
/** Progress is written at most this often. */
const PROGRESS_EVERY_MS = 1_000;

export const hostName = () => os.hostname();

type Row = typeof backups.$inferSelect;

/** Writes the backup's file and sends it where it is kept; the row says how far it got, and why not further. */
export async function makeBackup(services: AppServices, backupId: string, signal?: AbortSignal): Promise<void> {
  const { db, config, logger } = services;
  const [backup] = await db
    .update(backups)
    .set({ status: "running", host: hostName(), pid: process.pid, startedAt: new Date(), heartbeatAt: new Date() })
    .where(and(eq(backups.id, backupId), eq(backups.status, "queued")))
    .returning();
  if (!backup) return;
  const dir = config.backups.dir;
  const plain = path.join(dir, `.${backup.fileName}.dump.partial`);
  const partial = path.join(dir, `.${backup.fileName}.partial`);
  const heartbeat = setInterval(() => {
    void db
      .update(backups)
      .set({ heartbeatAt: new Date() })
      .where(eq(backups.id, backupId))
      .catch(() => {});
  }, HEARTBEAT_MS);
  const started = Date.now();
  try {
    await mkdir(dir, { recursive: true });
    const counts =
      services.database.driver === "postgres"
        ? await pgDump(services, backupId, plain, signal)
        : await embeddedDump(services, backupId, plain);
    await db.update(backups).set({ tableCounts: counts.counts }).where(eq(backups.id, backupId));
    if (signal?.aborted) throw new Error("The server stopped during the backup.");
    const report = backup.verify ? await testRestore(services, plain, counts, signal) : null;
    if (backup.encryption) {
      await encryptFile(plain, partial, config.backups.encryptionRecipient!, signal);
      await rm(plain, { force: true });
    } else await rename(plain, partial);
    const sha256 = await fileSha256(partial);
    const { size } = await stat(partial);
    await rename(partial, path.join(dir, backup.fileName));
    await db.update(backups).set({ bytes: size, sha256 }).where(eq(backups.id, backupId));
    logger.info({ backupId, bytes: size, ms: Date.now() - started }, `backup made: ${backup.fileName}`);
    let sent: Sent;
    try {
      sent = await sendBackup(services, { ...backup, sha256 });
    } catch (error) {
      if (report) await recordTestRestore(services, backup, report);
      throw error;
    }
    if (report) await recordTestRestore(services, backup, { ...report, storedCopyMatches: sent.readBack });
    await finishDone(services, backup, { file: backup.fileName, bytes: size, sha256, store: sent.where });
  } catch (error) {
    // A folder that cannot be written may refuse the removal too; the row says why either way.
    for (const file of [plain, partial])
      await rm(file, { force: true }).catch((failure: Error) =>
        logger.warn({ err: failure, backupId }, "a failed backup's partial file could not be removed"),
      );
    const reason = signal?.aborted
      ? "The server stopped during the backup."
      : error instanceof Error
        ? error.message
        : String(error);
    await finishFailed(services, backupId, reason);
    throw error;
  } finally {
    clearInterval(heartbeat);
  }
}

async function finishDone(services: AppServices, backup: Row, facts: Record<string, unknown>) {
  await services.db
    .update(backups)
    .set({ status: "done", error: null, finishedAt: new Date(), progressDone: sql`${backups.progressTotal}` })
    .where(eq(backups.id, backup.id));
  await audit(
    services.db,
    { actorUserId: backup.adminId, agentUserId: null },
    "backups.done",
    "backup",
    backup.id,
    facts,
  );
}

export async function finishFailed(services: AppServices, backupId: string, reason: string) {
  const [failed] = await services.db
    .update(backups)
    .set({ status: "failed", error: reason.slice(0, 1000), finishedAt: new Date() })
    .where(and(eq(backups.id, backupId), sql`${backups.status} in ('queued', 'running')`))
    .returning({ adminId: backups.adminId });
  if (failed)
    await audit(services.db, { actorUserId: failed.adminId, agentUserId: null }, "backups.failed", "backup", backupId, {
      reason,
    });
}

/** A test restore's outcome on its backup's row. */
async function recordTestRestore(services: AppServices, backup: Row, report: BackupVerifyReport) {
  const status = verifyPassed(report) ? "passed" : "failed";
  await services.db
    .update(backups)
    .set({ verifyStatus: status, verifyReport: report, verifiedAt: new Date() })
    .where(eq(backups.id, backup.id));
  await audit(
    services.db,
    { actorUserId: backup.adminId, agentUserId: null },
    `backups.verify.${status}`,
    "backup",
    backup.id,
    { tables: report.tables, rows: report.rows, differences: report.differences.length, error: report.error },
  );
  if (status === "failed") services.logger.error({ backupId: backup.id, report }, "a backup's test restore failed");
}

/** The SHA-256 of what a stream gives. */
async function streamSha256(stream: NodeJS.ReadableStream): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

export type Sent = { where: "local" | "store"; readBack: boolean | null };

/**
 * Sends a made file to the remote store; with the local store it is where it stays. A test
 * restore's backup is read back from where it is kept and its SHA-256 compared. A store that
 * fails leaves the file in BACKUP_DIR and the backup failed with the store's words, until the
 * next send (sendWaitingBackups) gets it there.
 */
export async function sendBackup(
  services: AppServices,
  backup: Pick<Row, "id" | "fileName" | "verify" | "sha256">,
): Promise<Sent> {
  const { backupStore: store } = services.providers;
  const { dir, keepLocal } = services.config.backups;
  const file = path.join(dir, backup.fileName);
  if (store.name === "local")
    return { where: "local", readBack: backup.verify ? (await fileSha256(file)) === backup.sha256 : null };
  try {
    await store.put(backup.fileName, createReadStream(file));
  } catch (error) {
    throw new Error(
      `${(error as Error).message}. The file is kept in ${dir} on ${hostName()} and sent to the store when it answers again.`,
      { cause: error },
    );
  }
  await services.db.update(backups).set({ storedAt: new Date() }).where(eq(backups.id, backup.id));
  let readBack: boolean | null = null;
  if (backup.verify) {
    const stored = await store.get(backup.fileName);
    readBack = stored ? (await streamSha256(stored)) === backup.sha256 : false;
  }
  if (!keepLocal) {
    await rm(file, { force: true });
    await services.db.update(backups).set({ localCopy: false }).where(eq(backups.id, backup.id));
  }
  return { where: "store", readBack };
}

/**
 * The rows of every table in the embedded database, before and after its dump: PGlite has one
 * connection and no snapshot to share, so a table written to meanwhile is left out of the
 * counts rather than given a figure the dump may not hold.
 */
async function embeddedDump(services: AppServices, backupId: string, file: string): Promise<DumpCounts> {
  const query: RowQuery = async (text) => rowsOf(await services.db.execute(sql.raw(text)));
  await services.db.update(backups).set({ progressTotal: 1 }).where(eq(backups.id, backupId));
  const before = await countRows(query);
  const { heldMs } = await dumpEmbedded(services.database, file);
  services.logger.info({ backupId, heldMs }, `the embedded database's dump held the event loop for up to ${heldMs} ms`);
  const after = await countRows(query);
  const changed = (table: string) => after[table] !== before[table];
  return {
    counts: Object.fromEntries(Object.entries(before).filter(([table]) => !changed(table))),
    notCompared: [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(changed).sort(),
  };
}

/**
 * pg_dump of the whole database (the app's tables, its migrations' record, pg-boss's jobs) in
 * its custom format, from a snapshot this function exports and counts the rows in first: the
 * counts are of exactly the rows the file holds.
 */
async function pgDump(
  services: AppServices,
  backupId: string,
  file: string,
  signal?: AbortSignal,
): Promise<DumpCounts> {
  const { db, config } = services;
  const url = config.databaseUrl!;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const { rows } = await client.query<{ snapshot: string; version: number }>(
      "select pg_export_snapshot() as snapshot, current_setting('server_version_num')::int / 10000 as version",
    );
    const { snapshot, version } = rows[0]!;
    const counts = await countRows(async (text) => (await client.query(text)).rows);
    await checkTool(config.backups.pgBinDir, "pg_dump", version);
    const total = Object.keys(counts).length;
    await db.update(backups).set({ progressTotal: total }).where(eq(backups.id, backupId));
    let tables = 0;
    let written = 0;
    let writing: Promise<unknown> = Promise.resolve();
    const { dbname, env } = connectionFor(url);
    const run = await runTool(
      config.backups.pgBinDir,
      "pg_dump",
      ["--format=custom", "--verbose", `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${dbname}`],
      {
        env,
        signal,
        onLine(line) {
          if (!dumpedTable(line)) return;
          tables += 1;
          if (Date.now() - written < PROGRESS_EVERY_MS) return;
          written = Date.now();
          const done = Math.min(tables, total);
          writing = writing.then(() =>
            db
              .update(backups)
              .set({ progressDone: done, heartbeatAt: new Date() })
              .where(eq(backups.id, backupId))
              .catch(() => {}),
          );
        },
      },
    );
    await writing;
    if (run.code !== 0) throw new Error(`pg_dump failed: ${toolFailure("pg_dump", run)}`);
    return { counts, notCompared: [] };
  } finally {
    await client.end().catch(() => {});
  }
}
