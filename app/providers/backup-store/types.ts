import type { Readable } from "node:stream";
import { providerFailure, providerRefusal } from "../errors";

/**
 * Where backup files are kept: one interface, two adapters (the server's own BACKUP_DIR, and
 * an S3-compatible object store: AWS S3, Backblaze B2, Cloudflare R2, MinIO, Wasabi).
 *
 * A backup is a file of any size, so it goes in and comes out as a stream: neither adapter
 * holds a whole one in memory. A key is a backup's file name (domain/backups.ts
 * backupFileName); the store decides where under its folder or prefix it lives.
 */

export type BackupStoreName = "local" | "s3";

/** One stored backup file as its store describes it. */
export type StoredObject = {
  key: string;
  bytes: number;
  modifiedAt: Date;
};

export type PutOptions = {
  /** Stops the upload: no file is stored, and the parts already sent are dropped. */
  signal?: AbortSignal;
};

export interface BackupStore {
  readonly name: BackupStoreName;
  /** Where the files are, for admins and logs: a folder, or `s3://bucket/prefix`. */
  readonly location: string;

  /** Stores the stream's bytes under `key`, whole or not at all; a file already there is replaced. */
  put(key: string, body: Readable, options?: PutOptions): Promise<StoredObject>;

  /** Every backup file in the store, in no promised order. */
  list(): Promise<StoredObject[]>;

  /** The file's bytes as a stream; null when the store has no such file. */
  get(key: string): Promise<Readable | null>;

  /** The file's size and time; null when the store has no such file. */
  head(key: string): Promise<StoredObject | null>;

  /** Removes the file; one that is not there is no error. */
  delete(key: string): Promise<void>;
}

/** The store cannot be reached, failed (5xx), is slowing us down or did not answer in time: nothing was stored or removed. */
export class BackupStoreUnavailable extends providerFailure(
  "backup-store",
  "provider_unavailable",
  "BackupStoreUnavailable",
) {}

/** The store refused the request (4xx): wrong keys, no such bucket, no permission; `providerCode` is its own code. */
export class BackupStoreRefused extends providerRefusal("backup-store", "store_refused", "BackupStoreRefused") {}

/**
 * A key is a plain file name: no folders, nothing hidden (the local store writes its partial
 * files under a leading dot), so a key can never reach outside the store's folder or prefix.
 */
export const isBackupKey = (key: string): boolean => /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/.test(key);

export function checkKey(key: string): string {
  if (!isBackupKey(key)) throw new Error(`Not a backup file name: ${JSON.stringify(key)}`);
  return key;
}
