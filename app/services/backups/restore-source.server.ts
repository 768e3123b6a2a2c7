import { existsSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import path from "node:path";
import { backupNameFacts, isAgeFile, type BackupDriver, type BackupNameFacts } from "~/domain/backups";
import { isBackupKey, type BackupStore } from "~/providers/backup-store/types";
import { booleanFlag } from "~/config/env.server";

/**
 * Where `npm run restore` reads a backup from: a file, an object of an S3-compatible store
 * (`s3://bucket/key`), or the newest backup of the configured store (`--latest`). Everything
 * here is found out before any database is touched.
 */

/** A restore refused before anything changed: its message is the one line the operator reads. */
export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

export type RestoreSource =
  { from: "file"; file: string } | { from: "s3"; bucket: string; prefix: string; name: string } | { from: "latest" };

export const RESTORE_USAGE = "npm run restore -- FILE | s3://bucket/key | --latest [--counts]";

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The command line's backup, read; refused when it names none or names it wrongly. */
export function restoreSourceOf(argument: string | undefined): RestoreSource {
  const given = argument?.trim() ?? "";
  if (!given) throw new RestoreRefused(`Name the backup: ${RESTORE_USAGE}`);
  if (given === "--latest") return { from: "latest" };
  if (given.startsWith("-")) throw new RestoreRefused(`${given} is not an option of the restore: ${RESTORE_USAGE}`);
  if (!/^s3:\/\//i.test(given)) return { from: "file", file: given };
  const match = /^s3:\/\/([^/]*)\/(.*)$/i.exec(given);
  const [bucket = "", key = ""] = match ? match.slice(1) : [];
  if (!BUCKET.test(bucket))
    throw new RestoreRefused(`${given} names no bucket: write s3://bucket/folder/memberhall-….dump(.age)`);
  const parts = key.split("/");
  const name = parts.pop() ?? "";
  if (parts.some((part) => part === "" || part === "." || part === "..") || !isBackupKey(name))
    throw new RestoreRefused(`${given} names no backup file: write s3://${bucket}/folder/memberhall-….dump(.age)`);
  return { from: "s3", bucket, prefix: parts.map((part) => `${part}/`).join(""), name };
}

/** The database a backup is of, by its file name (backupFileName's extensions, ".age" added when encrypted). */
export function driverOfName(name: string): BackupDriver | null {
  if (/\.dump(\.age)?$/.test(name)) return "postgres";
  if (/\.tar\.gz(\.age)?$/.test(name)) return "pglite";
  return null;
}

/**
 * The newest backup of the database's kind among a store's files, by the time in its name;
 * null when there is none. Files of other names are not backups this app made.
 */
export function newestBackupName(names: readonly string[], driver: BackupDriver): string | null {
  const candidates = names
    .map((name) => ({ name, facts: backupNameFacts(name) }))
    .filter((c): c is { name: string; facts: BackupNameFacts } => c.facts?.driver === driver)
    .sort((a, b) => a.facts.at.getTime() - b.facts.at.getTime() || a.name.localeCompare(b.name));
  return candidates.at(-1)?.name ?? null;
}

/** A size for a progress line. */
export function megabytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes > 0 && bytes < 1e5) return "under 0.1 MB";
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** RESTORE_PRINT_COUNTS (set by `--counts`): print the restored tables' rows as one last line. */
export function countsAsked(env: Record<string, string | undefined>): boolean {
  const parsed = booleanFlag.optional().safeParse(env.RESTORE_PRINT_COUNTS);
  if (!parsed.success) throw new RestoreRefused(`RESTORE_PRINT_COUNTS ${parsed.error.issues[0]!.message}`);
  return parsed.data ?? false;
}

/**
 * The S3-compatible store a restore may read, as the server's settings give it (BACKUP_STORE,
 * S3_*): opened by the task, which chooses providers as the server does at boot.
 */
export type StoreAccess = {
  /** The bucket and folder the server sends its backups to (BACKUP_STORE=s3), which `--latest` reads; null: none. */
  configured: { bucket: string; prefix: string } | null;
  /** A store over a bucket and folder, with S3_ENDPOINT, S3_REGION and the keys; null: the keys are not set. */
  open: ((bucket: string, prefix: string) => BackupStore) | null;
};

function storeAt(access: StoreAccess | undefined, bucket: string, prefix: string, what: string): BackupStore {
  if (!access?.open)
    throw new RestoreRefused(
      `${what} is read with the store's keys: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_ENDPOINT, S3_REGION, S3_FORCE_PATH_STYLE for a store other than AWS S3)`,
    );
  return access.open(bucket, prefix);
}

/** A backup found, not read yet: its name, size, and whether it is encrypted (a file's header, a stored one's name). */
export type Located =
  | { from: "file"; file: string; name: string; bytes: number; encrypted: boolean }
  | { from: "store"; store: BackupStore; name: string; bytes: number; storedAt: Date; encrypted: boolean };

async function firstBytes(file: string, length: number): Promise<Uint8Array> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Finds the backup the source names, refusing one that is not there; reads nothing of it but a file's header. */
export async function locateBackup(
  source: RestoreSource,
  access: StoreAccess | undefined,
  driver: BackupDriver,
  log: (message: string) => void,
): Promise<Located> {
  if (source.from === "file") {
    const file = path.resolve(source.file);
    if (!existsSync(file) || !statSync(file).isFile()) throw new RestoreRefused(`${source.file} is not a file`);
    const encrypted = isAgeFile(await firstBytes(file, 64));
    return { from: "file", file, name: path.basename(file), bytes: statSync(file).size, encrypted };
  }
  let store: BackupStore;
  let name: string;
  if (source.from === "s3") {
    store = storeAt(access, source.bucket, source.prefix, `s3://${source.bucket}/${source.prefix}${source.name}`);
    name = source.name;
  } else {
    const configured = access?.configured;
    if (!configured)
      throw new RestoreRefused(
        "--latest reads the backup store: set BACKUP_STORE=s3 with S3_BUCKET and S3_PREFIX as the server has them (or name the backup: s3://bucket/key or a file)",
      );
    const { bucket, prefix } = configured;
    store = storeAt(access, bucket, prefix, `s3://${bucket}/${prefix}`);
    const newest = newestBackupName(
      (await store.list()).map((object) => object.key),
      driver,
    );
    const kind = driver === "postgres" ? "PostgreSQL backup (.dump)" : "embedded database's backup (.tar.gz)";
    if (!newest) throw new RestoreRefused(`${store.location} holds no ${kind}, encrypted or not`);
    log(`the newest ${kind} in ${store.location} is ${newest}`);
    name = newest;
  }
  const object = await store.head(name);
  if (!object) throw new RestoreRefused(`${store.location}${name} is not in the store`);
  return {
    from: "store",
    store,
    name,
    bytes: object.bytes,
    storedAt: object.modifiedAt,
    encrypted: name.endsWith(".age"),
  };
}

/** Refused when an encrypted backup comes without its private key; the same words whichever way it came. */
export function missingIdentity(name: string): RestoreRefused {
  return new RestoreRefused(
    `${name} is encrypted (age): set BACKUP_IDENTITY to its private key (AGE-SECRET-KEY-1…) or BACKUP_IDENTITY_FILE to the key file npm run backup:keygen wrote`,
  );
}
