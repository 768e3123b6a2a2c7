import { z } from "zod";

/** The rules of backups (decision 043), without I/O: names, formats, pg_dump's progress, what retention removes. */

export type BackupKind = "manual" | "daily";
export type BackupDriver = "postgres" | "pglite";
export type BackupStatus = "queued" | "running" | "done" | "failed";

/** A backup's file name: when it was asked for (UTC), its kind, and its format's extension (".age" added when encrypted). */
export function backupFileName(kind: BackupKind, driver: BackupDriver, at: Date, encrypted = false): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replaceAll(":", "");
  return `memberhall-${stamp}-${kind}${driver === "postgres" ? ".dump" : ".tar.gz"}${encrypted ? ".age" : ""}`;
}

/** backupFileName's names, the date written with or without its dashes. */
const BACKUP_NAME = /^memberhall-(\d{4})-?(\d{2})-?(\d{2})T(\d{2})(\d{2})(\d{2})Z-(manual|daily)\.(dump|tar\.gz)(\.age)?$/;

export type BackupNameFacts = { kind: BackupKind; driver: BackupDriver; at: Date; encrypted: boolean };

/** What a backup's file name says of it (backupFileName's inverse); null for a file this app did not name. */
export function backupNameFacts(name: string): BackupNameFacts | null {
  const match = BACKUP_NAME.exec(name);
  if (!match) return null;
  const [, year, month, day, hours, minutes, seconds, kind, extension, age] = match;
  const at = new Date(`${year}-${month}-${day}T${hours}:${minutes}:${seconds}Z`);
  if (Number.isNaN(at.getTime())) return null;
  return {
    kind: kind as BackupKind,
    driver: extension === "dump" ? "postgres" : "pglite",
    at,
    encrypted: Boolean(age),
  };
}

/**
 * What a file is, from its first bytes: pg_dump's custom format opens with "PGDMP"; the
 * embedded database's dump is a gzip stream (whose content `isTarHeader` checks).
 */
export function dumpFormat(head: Uint8Array): BackupDriver | null {
  if (head.length >= 5 && String.fromCharCode(...head.subarray(0, 5)) === "PGDMP") return "postgres";
  if (head.length >= 3 && head[0] === 0x1f && head[1] === 0x8b && head[2] === 0x08) return "pglite";
  return null;
}

/** Whether a block is a POSIX tar header ("ustar" at byte 257). */
export function isTarHeader(block: Uint8Array): boolean {
  return block.length >= 262 && String.fromCharCode(...block.subarray(257, 262)) === "ustar";
}

/** The major version in `pg_dump --version`'s line ("pg_dump (PostgreSQL) 15.20 (Debian …)"), or null. */
export function toolMajorVersion(line: string): number | null {
  const match = /\(PostgreSQL\)\s+(\d+)(?:\.\d+)?/.exec(line);
  return match ? Number(match[1]) : null;
}

/** The table a line of `pg_dump --verbose` says it starts dumping the rows of, or null. */
export function dumpedTable(line: string): string | null {
  const match = /^pg_dump: dumping contents of table "([^"]+)"/.exec(line.trim());
  return match ? match[1]! : null;
}

/** pg_dump's own words for what went wrong: its error lines, without the prefix. */
export function dumpErrors(lines: readonly string[]): string {
  return lines
    .map((line) => /^pg_(?:dump|restore): error: (.*)$/.exec(line.trim())?.[1])
    .filter((line): line is string => Boolean(line))
    .join("; ");
}

export type RetainedBackup = { id: string; kind: BackupKind; status: BackupStatus; createdAt: Date };

/**
 * The daily backups retention removes: those asked for more than `days` days before `now`,
 * finished (done or failed). The newest backup that is done is always kept, however old: days of
 * failed backups never leave a community without one. Manual backups stay until an admin deletes them.
 */
export function expiredBackups(backups: readonly RetainedBackup[], now: Date, days: number): string[] {
  const cutoff = now.getTime() - days * 86_400_000;
  const newestDone = backups
    .filter((b) => b.status === "done")
    .reduce<RetainedBackup | null>((newest, b) => (!newest || b.createdAt > newest.createdAt ? b : newest), null);
  return backups
    .filter(
      (b) =>
        b.kind === "daily" &&
        (b.status === "done" || b.status === "failed") &&
        b.createdAt.getTime() < cutoff &&
        b.id !== newestDone?.id,
    )
    .map((b) => b.id);
}

/** The backups page's form: make one now (test-restored as it is made, if asked), or delete one that is finished. */
export const backupIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start") }),
  z.object({ intent: z.literal("test-restore") }),
  z.object({ intent: z.literal("delete"), backupId: z.string().uuid({ message: "No such backup" }) }),
]);

export const backupIdSchema = z.string().uuid();

/** A table whose rows the test restore found other than the backup's snapshot held; null: the table is missing there. */
export type CountDifference = { table: string; expected: number | null; found: number | null };

/** What a test restore found (decision 064). */
export type BackupVerifyReport = {
  /** Tables compared, and their rows in the backup's snapshot. */
  tables: number;
  rows: number;
  differences: CountDifference[];
  /** Tables written to while the embedded database was dumped: no count of theirs to compare with. */
  notCompared: string[];
  /** The stored copy read back from where it is kept: whether its SHA-256 is the one recorded; null: not read back. */
  storedCopyMatches: boolean | null;
  /** Why the test restore could not finish, in the tool's or store's words. */
  error: string | null;
  ms: number;
};

/**
 * The tables whose row counts differ between the backup's snapshot and what its restore holds,
 * by name; the tables `notCompared` (written to during the dump, so with no count) left aside.
 */
export function countDifferences(
  expected: Readonly<Record<string, number>>,
  found: Readonly<Record<string, number>>,
  notCompared: readonly string[] = [],
): CountDifference[] {
  const aside = new Set(notCompared);
  const names = [...new Set([...Object.keys(expected), ...Object.keys(found)])].sort();
  return names
    .filter((table) => !aside.has(table) && expected[table] !== found[table])
    .map((table) => ({ table, expected: expected[table] ?? null, found: found[table] ?? null }));
}

/** Whether a test restore passed: every table there with its rows, and the stored copy unchanged where it was read. */
export const verifyPassed = (report: BackupVerifyReport): boolean =>
  report.error === null && report.differences.length === 0 && report.storedCopyMatches !== false;

/** The opening of every age file (age-encryption.org/v1). */
export const AGE_HEADER = "age-encryption.org/v1\n";

export const isAgeFile = (head: Uint8Array): boolean =>
  head.length >= AGE_HEADER.length && String.fromCharCode(...head.subarray(0, AGE_HEADER.length)) === AGE_HEADER;

/** Where a backup's file is: in BACKUP_DIR on its server, in the remote store, or both. */
export type BackupPlace = "local" | "store" | "both" | "nowhere";

export function backupPlace(backup: { localCopy: boolean; storedAt: Date | null }): BackupPlace {
  if (backup.localCopy && backup.storedAt) return "both";
  if (backup.storedAt) return "store";
  return backup.localCopy ? "local" : "nowhere";
}
