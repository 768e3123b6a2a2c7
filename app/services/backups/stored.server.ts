import { existsSync } from "node:fs";
import path from "node:path";
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import type { AppServices } from "~/context";
import { backups } from "~/db/schema";
import { backupNameFacts } from "~/domain/backups";
import { audit } from "../audit.server";
import { sweepJob } from "../queue.server";
import { hostName, sendBackup } from "./making.server";

/**
 * The backups table and the remote store kept in step (decision 064): files the store did not
 * take are sent again, and files in the store that this database has no row of (made after the
 * backup it was restored from) are listed, downloaded and expired like the others.
 */

/**
 * Sends again the backups whose store did not answer when they were made, from the BACKUP_DIR
 * of the server that made them: each is done once the store has it.
 */
export const sendWaitingBackupsJob = sweepJob({
  name: "backups-send",
  schedule: "*/15 * * * *",
  enabled: (services) => services.providers.backupStore.name !== "local",
  retry: { limit: 0, delaySeconds: 0 },
  timeoutSeconds: 4 * 3600,
  async run(services) {
    await sendWaitingBackups(services);
    await adoptStoredBackups(services);
  },
});

export async function sendWaitingBackups(services: AppServices): Promise<number> {
  const { db, logger } = services;
  const waiting = await db
    .select()
    .from(backups)
    .where(
      and(
        eq(backups.status, "failed"),
        eq(backups.localCopy, true),
        eq(backups.host, hostName()),
        isNull(backups.storedAt),
        isNotNull(backups.sha256),
      ),
    );
  let sent = 0;
  for (const backup of waiting) {
    if (!existsSync(path.join(services.config.backups.dir, backup.fileName))) continue;
    try {
      await sendBackup(services, { ...backup, verify: false });
    } catch (error) {
      logger.warn({ err: error, backupId: backup.id }, "a backup waiting for the store is still not sent");
      break;
    }
    await db.update(backups).set({ status: "done", error: null }).where(eq(backups.id, backup.id));
    await audit(db, { actorUserId: null, agentUserId: null }, "backups.sent", "backup", backup.id, {
      file: backup.fileName,
      store: services.providers.backupStore.location,
    });
    sent += 1;
  }
  return sent;
}

/**
 * Gives a row to each backup file in the store that this database does not know, of its own
 * kind of database: after a restore from an older backup, the ones made since are listed on the
 * page and expire with the others. What their name says is all that is known of them.
 */
export async function adoptStoredBackups(services: AppServices): Promise<number> {
  const store = services.providers.backupStore;
  if (store.name === "local") return 0;
  const known = new Set(
    (await services.db.select({ fileName: backups.fileName }).from(backups)).map((row) => row.fileName),
  );
  const adopted = [];
  for (const object of await store.list()) {
    const facts = backupNameFacts(object.key);
    if (!facts || known.has(object.key) || facts.driver !== services.database.driver) continue;
    adopted.push({
      kind: facts.kind,
      status: "done" as const,
      driver: facts.driver,
      fileName: object.key,
      bytes: object.bytes,
      encryption: facts.encrypted ? ("age" as const) : null,
      localCopy: false,
      storedAt: object.modifiedAt,
      createdAt: facts.at,
      finishedAt: object.modifiedAt,
    });
  }
  if (adopted.length) await services.db.insert(backups).values(adopted);
  return adopted.length;
}
