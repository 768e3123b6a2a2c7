import { z } from "zod";

/** The rules of backups (decision 043), without I/O: names, formats, pg_dump's progress, what retention removes. */

export type BackupKind = "manual" | "daily";
export type BackupDriver = "postgres" | "pglite";
export type BackupStatus = "queued" | "running" | "done" | "failed";

/** A backup's file name: when it was asked for (UTC), its kind, and its format's extension. */
export function backupFileName(kind: BackupKind, driver: BackupDriver, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replaceAll(":", "");
  return `memberhall-${stamp}-${kind}${driver === "postgres" ? ".dump" : ".tar.gz"}`;
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

/** The backups page's form: make one now, or delete one that is finished. */
export const backupIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start") }),
  z.object({ intent: z.literal("delete"), backupId: z.string().uuid({ message: "No such backup" }) }),
]);

export const backupIdSchema = z.string().uuid();
