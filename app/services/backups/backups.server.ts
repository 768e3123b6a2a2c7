import { existsSync } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { and, desc, eq, inArray, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { rowsOf } from "~/db/client.server";
import { backups, users } from "~/db/schema";
import { backupFileName, dumpedTable, expiredBackups, type BackupKind } from "~/domain/backups";
import { cronWords } from "~/domain/cron-words";
import { conflict, notFound } from "~/domain/errors";
import { isAlive } from "~/lib/process.server";
import { actorOf, audit } from "../audit.server";
import { enqueue, type JobDefinition, sweepJob } from "../queue.server";
import type { Viewer } from "../session.server";
import { checkTool, connectionFor, dumpEmbedded, fileSha256, runTool, toolFailure } from "./dump.server";

/**
 * Backups (docs/decisions/043-backups.md): a job writes the database's dump to BACKUP_DIR on the
 * server that runs it, under a temporary name renamed once whole, and records its size and
 * SHA-256 on its row. The admins' page asks for one and shows its progress; a daily one runs on
 * BACKUP_CRON and the daily ones older than BACKUP_RETENTION_DAYS go.
 */

/** How often a running backup says it is alive, and how long without a word means its server died. */
const HEARTBEAT_MS = 30_000;
const DEAD_AFTER_MS = 4 * HEARTBEAT_MS;
/** A queued backup no server took in this long (no job runner anywhere) is given up. */
const UNTAKEN_AFTER_MS = 10 * 60_000;
/** Progress is written at most this often. */
const PROGRESS_EVERY_MS = 1_000;

const backupData = z.object({ backupId: z.string().uuid() });

const RUN_LIMIT_SECONDS = 4 * 3600;

export const backupJob = {
  name: "backup",
  data: backupData,
  // A backup that failed is marked failed with its reason; an admin asks for another.
  retry: { limit: 0, delaySeconds: 0 },
  timeoutSeconds: RUN_LIMIT_SECONDS,
  async run(services, data, job) {
    await makeBackup(services, data.backupId, job.signal);
  },
} satisfies JobDefinition<z.infer<typeof backupData>>;

export const dailyBackupJob = sweepJob({
  name: "backups-daily",
  schedule: (services) => services.config.backups.cron,
  retry: { limit: 0, delaySeconds: 0 },
  timeoutSeconds: RUN_LIMIT_SECONDS,
  async run(services, _data, job) {
    try {
      const backupId = await queueBackup(services, "daily", null);
      if (backupId) await makeBackup(services, backupId, job.signal);
      else services.logger.warn("the daily backup was not made: another backup is under way");
    } finally {
      await applyRetention(services);
    }
  },
});

const hostName = () => os.hostname();

/**
 * Marks failed the backups a stopped server left under way: those of a process on this host that
 * is gone (a restart), and anywhere, those whose heartbeat stopped or that no server took.
 */
export async function failInterruptedBackups(services: AppServices): Promise<number> {
  const { db } = services;
  const unfinished = await db
    .select({ id: backups.id, status: backups.status, host: backups.host, pid: backups.pid })
    .from(backups)
    .where(
      or(
        eq(backups.status, "running"),
        and(eq(backups.status, "queued"), lt(backups.createdAt, new Date(Date.now() - UNTAKEN_AFTER_MS))),
      ),
    );
  const here = hostName();
  const stale = await db
    .select({ id: backups.id })
    .from(backups)
    .where(and(eq(backups.status, "running"), lt(backups.heartbeatAt, new Date(Date.now() - DEAD_AFTER_MS))));
  const staleIds = new Set(stale.map((row) => row.id));
  const gone = unfinished.filter(
    (b) =>
      b.status === "queued" ||
      staleIds.has(b.id) ||
      (b.host === here && b.pid !== null && b.pid !== process.pid && !isAlive(b.pid)),
  );
  for (const b of gone) {
    await finishFailed(
      services,
      b.id,
      b.status === "queued"
        ? "No server took the backup: is the job runner running?"
        : `The server${b.host ? ` (${b.host})` : ""} stopped during the backup.`,
    );
  }
  return gone.length;
}

/** A new backup row, queued; null when another backup is queued or running. */
async function queueBackup(services: AppServices, kind: BackupKind, adminId: string | null): Promise<string | null> {
  await failInterruptedBackups(services);
  const now = new Date();
  const driver = services.database.driver;
  const [made] = await services.db
    .insert(backups)
    .values({ kind, adminId, driver, fileName: backupFileName(kind, driver, now), createdAt: now })
    .onConflictDoNothing()
    .returning({ id: backups.id });
  return made?.id ?? null;
}

/** An admin asks for a backup now: it is queued, audited, and its progress shows on the page. */
export async function startBackup(services: AppServices, admin: Viewer): Promise<string> {
  const backupId = await queueBackup(services, "manual", admin.user.id);
  if (!backupId) throw conflict("A backup is under way already: wait for it to finish, then ask again.");
  await audit(services.db, actorOf(admin), "backups.start", "backup", backupId);
  await enqueue(services, backupJob, { backupId });
  return backupId;
}

async function finishFailed(services: AppServices, backupId: string, reason: string) {
  const [failed] = await services.db
    .update(backups)
    .set({ status: "failed", error: reason.slice(0, 1000), finishedAt: new Date() })
    .where(and(eq(backups.id, backupId), inArray(backups.status, ["queued", "running"])))
    .returning({ adminId: backups.adminId });
  if (failed)
    await audit(services.db, { actorUserId: failed.adminId, agentUserId: null }, "backups.failed", "backup", backupId, {
      reason,
    });
}

/** Writes the backup's file: pg_dump on PostgreSQL, the embedded database's own dump on PGlite. */
export async function makeBackup(services: AppServices, backupId: string, signal?: AbortSignal): Promise<void> {
  const { db, config, logger } = services;
  const [backup] = await db
    .update(backups)
    .set({ status: "running", host: hostName(), pid: process.pid, startedAt: new Date(), heartbeatAt: new Date() })
    .where(and(eq(backups.id, backupId), eq(backups.status, "queued")))
    .returning();
  if (!backup) return;
  const dir = config.backups.dir;
  const file = path.join(dir, backup.fileName);
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
    if (services.database.driver === "postgres") {
      await pgDump(services, backupId, partial, signal);
    } else {
      await db.update(backups).set({ progressTotal: 1 }).where(eq(backups.id, backupId));
      const { heldMs } = await dumpEmbedded(services.database, partial);
      logger.info({ backupId, heldMs }, `the embedded database's dump held the event loop for up to ${heldMs} ms`);
    }
    if (signal?.aborted) throw new Error("The server stopped during the backup.");
    const sha256 = await fileSha256(partial);
    const { size } = await stat(partial);
    await rename(partial, file);
    await db
      .update(backups)
      .set({ status: "done", bytes: size, sha256, finishedAt: new Date(), progressDone: sql`${backups.progressTotal}` })
      .where(eq(backups.id, backupId));
    logger.info({ backupId, bytes: size, ms: Date.now() - started }, `backup made: ${backup.fileName}`);
    await audit(db, { actorUserId: backup.adminId, agentUserId: null }, "backups.done", "backup", backupId, {
      file: backup.fileName,
      bytes: size,
      sha256,
    });
  } catch (error) {
    // A folder that cannot be written may refuse the removal too; the row says why either way.
    await rm(partial, { force: true }).catch((failure: Error) =>
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

/** pg_dump of the whole database (the app's tables, its migrations' record, pg-boss's jobs) in its custom format. */
async function pgDump(services: AppServices, backupId: string, file: string, signal?: AbortSignal): Promise<void> {
  const { db, config } = services;
  const url = config.databaseUrl!;
  const [facts] = rowsOf<{ version: number; tables: number }>(
    await db.execute(sql`
      select current_setting('server_version_num')::int / 10000 as version,
        (select count(*)::int from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where c.relkind = 'r' and n.nspname not in ('pg_catalog', 'information_schema')
           and n.nspname not like 'pg\\_%') as tables`),
  );
  await checkTool(config.backups.pgBinDir, "pg_dump", facts!.version);
  await db.update(backups).set({ progressTotal: facts!.tables }).where(eq(backups.id, backupId));
  let tables = 0;
  let written = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const { dbname, env } = connectionFor(url);
  const run = await runTool(
    config.backups.pgBinDir,
    "pg_dump",
    ["--format=custom", "--verbose", `--file=${file}`, `--dbname=${dbname}`],
    {
      env,
      signal,
      onLine(line) {
        if (!dumpedTable(line)) return;
        tables += 1;
        if (Date.now() - written < PROGRESS_EVERY_MS) return;
        written = Date.now();
        const done = Math.min(tables, facts!.tables);
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
}

/** Removes the daily backups past their retention (domain/backups.ts expiredBackups): files here and rows. */
export async function applyRetention(services: AppServices): Promise<number> {
  const { db, config, logger } = services;
  const all = await db
    .select({
      id: backups.id,
      kind: backups.kind,
      status: backups.status,
      createdAt: backups.createdAt,
      fileName: backups.fileName,
      host: backups.host,
    })
    .from(backups);
  const expired = new Set(expiredBackups(all, new Date(), config.backups.retentionDays));
  for (const backup of all.filter((b) => expired.has(b.id))) {
    const file = path.join(config.backups.dir, backup.fileName);
    if (existsSync(file)) await rm(file, { force: true });
    else if (backup.status === "done" && backup.host && backup.host !== hostName())
      logger.warn(
        { backupId: backup.id, host: backup.host },
        `an expired backup's file is on ${backup.host}, not here: delete ${backup.fileName} there`,
      );
    await db.delete(backups).where(eq(backups.id, backup.id));
  }
  return expired.size;
}

/** The backups page: the latest backups, newest first, with who asked for each. */
export async function listBackups(services: AppServices) {
  const rows = await services.db
    .select({
      id: backups.id,
      kind: backups.kind,
      status: backups.status,
      fileName: backups.fileName,
      host: backups.host,
      progressDone: backups.progressDone,
      progressTotal: backups.progressTotal,
      bytes: backups.bytes,
      sha256: backups.sha256,
      error: backups.error,
      createdAt: backups.createdAt,
      finishedAt: backups.finishedAt,
      admin: users.username,
    })
    .from(backups)
    .leftJoin(users, eq(users.id, backups.adminId))
    .orderBy(desc(backups.createdAt))
    .limit(100);
  const here = hostName();
  return {
    // A file on another server is downloaded there, so that server is named; this one goes without saying.
    backups: rows.map(({ host, ...row }) => ({ ...row, elsewhere: host && host !== here ? host : null })),
    retentionDays: services.config.backups.retentionDays,
    schedule: cronWords(services.config.backups.cron),
  };
}

export type BackupDownload =
  | { found: true; file: string; fileName: string; bytes: number | null; sha256: string | null }
  | { found: false; message: string };

/** A finished backup's file on this server, for its download (audited), or why this server cannot give it. */
export async function backupDownload(services: AppServices, admin: Viewer, backupId: string): Promise<BackupDownload> {
  const [backup] = await services.db.select().from(backups).where(eq(backups.id, backupId));
  if (!backup || backup.status !== "done") throw notFound("No such backup");
  const file = path.join(services.config.backups.dir, backup.fileName);
  if (!existsSync(file)) {
    const elsewhere = backup.host && backup.host !== hostName();
    return {
      found: false,
      message: elsewhere
        ? `This backup's file is on the server ${backup.host}, not on this one (${hostName()}): download it there, or keep BACKUP_DIR on a volume every server shares.`
        : `This backup's file is no longer in ${services.config.backups.dir} on this server (${hostName()}).`,
    };
  }
  await audit(services.db, actorOf(admin), "backups.download", "backup", backupId, { file: backup.fileName });
  return { found: true, file, fileName: backup.fileName, bytes: backup.bytes, sha256: backup.sha256 };
}

/** An admin deletes a finished backup: its file here, and its row. */
export async function deleteBackup(services: AppServices, admin: Viewer, backupId: string): Promise<string> {
  const [gone] = await services.db
    .delete(backups)
    .where(and(eq(backups.id, backupId), inArray(backups.status, ["done", "failed"])))
    .returning({ fileName: backups.fileName });
  if (!gone) throw notFound("No such backup, or it is still under way");
  await rm(path.join(services.config.backups.dir, gone.fileName), { force: true });
  await audit(services.db, actorOf(admin), "backups.delete", "backup", backupId, { file: gone.fileName });
  return gone.fileName;
}
