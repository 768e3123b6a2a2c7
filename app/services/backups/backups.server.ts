import { createReadStream, existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { and, desc, eq, inArray, lt, or } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { backups, users } from "~/db/schema";
import { backupFileName, backupPlace, expiredBackups, type BackupKind } from "~/domain/backups";
import { cronWords } from "~/domain/cron-words";
import { conflict, notFound } from "~/domain/errors";
import { isAlive } from "~/lib/process.server";
import { actorOf, audit } from "../audit.server";
import { enqueue, type JobDefinition, sweepJob } from "../queue.server";
import type { Viewer } from "../session.server";
import { finishFailed, HEARTBEAT_MS, hostName, makeBackup } from "./making.server";
import { adoptStoredBackups } from "./stored.server";

/**
 * Backups (decisions 043 and 064): a job writes the database's dump to BACKUP_DIR on the
 * server that runs it, encrypts it to the operator's key when one is set, records its size and
 * SHA-256 on its row and, with a remote store, sends it there. The admins' page asks for one
 * (tested by a restore if the admin asks) and shows its progress; a daily one runs on
 * BACKUP_CRON and the daily ones older than BACKUP_RETENTION_DAYS go, from the store too.
 */

/** How long without a heartbeat means a running backup's server died. */
const DEAD_AFTER_MS = 4 * HEARTBEAT_MS;
/** A queued backup no server took in this long (no job runner anywhere) is given up. */
const UNTAKEN_AFTER_MS = 10 * 60_000;

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
      const backupId = await queueBackup(services, "daily", null, services.config.backups.verifyDaily);
      if (backupId) await makeBackup(services, backupId, job.signal);
      else services.logger.warn("the daily backup was not made: another backup is under way");
    } finally {
      await adoptStoredBackups(services).catch((error: Error) =>
        services.logger.warn({ err: error }, "the store's backups could not be listed"),
      );
      await applyRetention(services);
    }
  },
});

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
async function queueBackup(
  services: AppServices,
  kind: BackupKind,
  adminId: string | null,
  verify: boolean,
): Promise<string | null> {
  await failInterruptedBackups(services);
  const now = new Date();
  const driver = services.database.driver;
  const encrypted = Boolean(services.config.backups.encryptionRecipient);
  const [made] = await services.db
    .insert(backups)
    .values({
      kind,
      adminId,
      driver,
      fileName: backupFileName(kind, driver, now, encrypted),
      encryption: encrypted ? "age" : null,
      verify,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: backups.id });
  return made?.id ?? null;
}

/** An admin asks for a backup now, test-restored as it is made if asked: queued, audited, its progress on the page. */
export async function startBackup(services: AppServices, admin: Viewer, verify = false): Promise<string> {
  const backupId = await queueBackup(services, "manual", admin.user.id, verify);
  if (!backupId) throw conflict("A backup is under way already: wait for it to finish, then ask again.");
  await audit(services.db, actorOf(admin), "backups.start", "backup", backupId, verify ? { testRestore: true } : {});
  await enqueue(services, backupJob, { backupId });
  return backupId;
}

/** Removes a backup's file wherever it is: this server's BACKUP_DIR, and the remote store. */
async function removeFiles(services: AppServices, backup: { fileName: string; storedAt: Date | null }) {
  await rm(path.join(services.config.backups.dir, backup.fileName), { force: true });
  const store = services.providers.backupStore;
  if (store.name !== "local" && backup.storedAt) await store.delete(backup.fileName);
}

/** Removes the daily backups past their retention (domain/backups.ts expiredBackups): files here and in the store, and rows. */
export async function applyRetention(services: AppServices): Promise<number> {
  const { db, logger } = services;
  const all = await db
    .select({
      id: backups.id,
      kind: backups.kind,
      status: backups.status,
      createdAt: backups.createdAt,
      fileName: backups.fileName,
      host: backups.host,
      localCopy: backups.localCopy,
      storedAt: backups.storedAt,
    })
    .from(backups);
  const expired = new Set(expiredBackups(all, new Date(), services.config.backups.retentionDays));
  let removed = 0;
  for (const backup of all.filter((b) => expired.has(b.id))) {
    if (backup.localCopy && backup.host && backup.host !== hostName()) {
      logger.warn(
        { backupId: backup.id, host: backup.host },
        `an expired backup's file is on ${backup.host}, not here: delete ${backup.fileName} there`,
      );
    }
    try {
      await removeFiles(services, backup);
    } catch (error) {
      // Its row stays, so that the next run removes it once the store answers.
      logger.warn({ err: error, backupId: backup.id }, `an expired backup could not be removed from the store`);
      continue;
    }
    await db.delete(backups).where(eq(backups.id, backup.id));
    removed += 1;
  }
  return removed;
}

/** The backups page: the latest backups, newest first, with who asked for each and where each is kept. */
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
      encryption: backups.encryption,
      localCopy: backups.localCopy,
      storedAt: backups.storedAt,
      verify: backups.verify,
      verifyStatus: backups.verifyStatus,
      verifyReport: backups.verifyReport,
      verifiedAt: backups.verifiedAt,
      createdAt: backups.createdAt,
      finishedAt: backups.finishedAt,
      admin: users.username,
    })
    .from(backups)
    .leftJoin(users, eq(users.id, backups.adminId))
    .orderBy(desc(backups.createdAt))
    .limit(100);
  const here = hostName();
  const { config, providers } = services;
  return {
    // A file on another server is downloaded there, so that server is named; this one goes without saying.
    backups: rows.map(({ host, localCopy, storedAt, ...row }) => ({
      ...row,
      storedAt,
      // A file is somewhere once it is whole: its SHA-256 is written then.
      place: backupPlace({ localCopy: row.sha256 ? localCopy : false, storedAt }),
      elsewhere: localCopy && !storedAt && host && host !== here ? host : null,
    })),
    retentionDays: config.backups.retentionDays,
    schedule: cronWords(config.backups.cron),
    store: providers.backupStore.name === "local" ? null : providers.backupStore.location,
    encrypted: Boolean(config.backups.encryptionRecipient),
    verifyDaily: config.backups.verifyDaily,
  };
}

export type BackupDownload =
  | {
      found: true;
      body: () => Promise<Readable>;
      fileName: string;
      bytes: number | null;
      sha256: string | null;
    }
  | { found: false; message: string };

/** A finished backup's file, here or from the store, for its download (audited), or why this server cannot give it. */
export async function backupDownload(services: AppServices, admin: Viewer, backupId: string): Promise<BackupDownload> {
  const [backup] = await services.db.select().from(backups).where(eq(backups.id, backupId));
  // A failed backup has a file only when it was made whole and the store did not take it.
  if (!backup || (backup.status !== "done" && !(backup.sha256 && backup.localCopy))) throw notFound("No such backup");
  const file = path.join(services.config.backups.dir, backup.fileName);
  const store = services.providers.backupStore;
  let body: (() => Promise<Readable>) | null = null;
  if (backup.localCopy && existsSync(file)) body = async () => createReadStream(file);
  else if (backup.storedAt && store.name !== "local") {
    body = async () => {
      const stored = await store.get(backup.fileName);
      if (!stored) throw notFound(`The store (${store.location}) no longer has ${backup.fileName}.`);
      return stored;
    };
  }
  if (!body) {
    const elsewhere = backup.localCopy && backup.host && backup.host !== hostName();
    return {
      found: false,
      message: elsewhere
        ? `This backup's file is on the server ${backup.host}, not on this one (${hostName()}): download it there, or keep BACKUP_DIR on a volume every server shares.`
        : `This backup's file is no longer in ${services.config.backups.dir} on this server (${hostName()}).`,
    };
  }
  await audit(services.db, actorOf(admin), "backups.download", "backup", backupId, { file: backup.fileName });
  return { found: true, body, fileName: backup.fileName, bytes: backup.bytes, sha256: backup.sha256 };
}

/** An admin deletes a finished backup: its file here and in the store, and its row. */
export async function deleteBackup(services: AppServices, admin: Viewer, backupId: string): Promise<string> {
  const [backup] = await services.db
    .select()
    .from(backups)
    .where(and(eq(backups.id, backupId), inArray(backups.status, ["done", "failed"])));
  if (!backup) throw notFound("No such backup, or it is still under way");
  await removeFiles(services, backup);
  await services.db.delete(backups).where(eq(backups.id, backupId));
  await audit(services.db, actorOf(admin), "backups.delete", "backup", backupId, { file: backup.fileName });
  return backup.fileName;
}
