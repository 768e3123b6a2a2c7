import { setTimeout as sleep } from "node:timers/promises";
import type { S3Standin } from "./s3-standin";

/**
 * A built server sending its backups to the S3 stand-in (decision 064), as the deploy test and
 * tests/server/backup-store.test.ts set it up and watch it on /admin/backups.
 */

/** The folder of the bucket the backups go to: `--latest` and the stand-in's keys must name it too. */
export const STORE_PREFIX = "memberhall/";

/** The settings that send a server's backups, encrypted to `recipient`, to the stand-in. */
export function storeEnv(standin: S3Standin, recipient: string): Record<string, string> {
  return {
    BACKUP_STORE: "s3",
    S3_ENDPOINT: standin.url,
    S3_BUCKET: standin.bucket,
    S3_REGION: standin.region,
    S3_ACCESS_KEY_ID: standin.accessKeyId,
    S3_SECRET_ACCESS_KEY: standin.secretAccessKey,
    S3_PREFIX: STORE_PREFIX,
    S3_FORCE_PATH_STYLE: "true",
    BACKUP_ENCRYPTION_RECIPIENT: recipient,
  };
}

/** /admin/backups's data, as its loader gives it. */
export const BACKUPS_DATA = `/admin/backups?_data=${encodeURIComponent("routes/admin_.backups._index")}`;

export type ListedBackup = {
  id: string;
  status: string;
  fileName: string;
  place: "local" | "store" | "both" | "nowhere";
  encryption: string | null;
  bytes: number | null;
  sha256: string | null;
  error: string | null;
  storedAt: string | null;
  verifyStatus: string | null;
  verifiedAt: string | null;
  verifyReport: { differences: unknown[]; storedCopyMatches: boolean | null; error: string | null } | null;
};

export type BackupsPage = { backups: ListedBackup[]; store: string | null; encrypted: boolean };

/**
 * The newest backup once `settled` holds of it (by default: it is done or failed), as the page
 * reads it; fails with its last state after `withinMs`.
 */
export async function newestBackupOnceSettled(
  read: () => Promise<BackupsPage>,
  withinMs: number,
  settled = (backup: ListedBackup) => backup.status === "done" || backup.status === "failed",
): Promise<ListedBackup> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const newest = (await read()).backups[0];
    if (newest && settled(newest)) return newest;
    if (Date.now() > deadline)
      throw new Error(`the backup did not finish within ${withinMs / 1000} s: ${JSON.stringify(newest)}`);
    await sleep(250);
  }
}
