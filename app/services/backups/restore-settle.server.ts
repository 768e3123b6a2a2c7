/**
 * After a restore, the work that was under way when the backup was made (decision 043). The
 * backup holds it as it stood then: its own row as running, the job that made it as active,
 * perhaps an import or a member's archive half done. None of it goes on here, and none of it may
 * block what comes next: a daily sweep waits behind an active job of its name, and an admin
 * cannot start a backup while one is under way.
 */

/** Runs one statement on the restored database: a pg client's `query`, or PGlite's. */
export type Query = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

/** The backup's file as it is kept (encrypted, in the store), which its row describes. */
export type KeptFile = {
  fileName: string;
  bytes: number;
  sha256: string;
  encrypted: boolean;
  /** When the store received it (its object's time); null: it was restored from a file. */
  storedAt: Date | null;
};

export type Settled = {
  /** Whether the backup's own row was found (by its file name) and marked done. */
  backup: boolean;
  /** Other backups, pg-boss jobs, imports and archives marked failed. */
  backupsFailed: number;
  jobsFailed: number;
  importsFailed: number;
  archivesFailed: number;
};

const UNDER_WAY = "It was under way when the backup this database was restored from was made.";
const IMPORT_UNDER_WAY =
  "The import was under way when the backup this database was restored from was made: the lines imported by then are kept; import the file again for the rest.";
const ARCHIVE_UNDER_WAY =
  "The archive was under way when the backup this database was restored from was made: please ask again.";

async function present(query: Query, relation: string): Promise<boolean> {
  const { rows } = await query("select to_regclass($1) is not null as present", [relation]);
  return (rows[0] as { present: boolean }).present;
}

async function columnsOf(query: Query, table: string): Promise<Set<string>> {
  const { rows } = await query(
    "select column_name as name from information_schema.columns where table_schema = 'public' and table_name = $1",
    [table],
  );
  return new Set(rows.map((row) => (row as { name: string }).name));
}

/**
 * The backup's row: done, with the facts of the file as kept. Found by the file's name, with or
 * without ".age": the row names the file as the server wrote it. A backup made before the store
 * existed has no columns for where its file is kept.
 */
async function settleBackups(query: Query, kept: KeptFile): Promise<Pick<Settled, "backup" | "backupsFailed">> {
  if (!(await present(query, "public.backups"))) return { backup: false, backupsFailed: 0 };
  const columns = await columnsOf(query, "backups");
  const values: unknown[] = [kept.fileName, kept.fileName.replace(/\.age$/, ""), kept.bytes, kept.sha256];
  const set = ["status = 'done'", "bytes = $3", "sha256 = $4", "progress_done = progress_total"];
  set.push("finished_at = coalesce(finished_at, now())", "error = null");
  if (columns.has("encryption")) set.push(`encryption = $${values.push(kept.encrypted ? "age" : null)}`);
  if (kept.storedAt && columns.has("stored_at") && columns.has("local_copy"))
    // The file came from the store: that is where it is, and no server's BACKUP_DIR is known to hold it.
    set.push(`stored_at = $${values.push(kept.storedAt)}`, "local_copy = false");
  const done = await query(
    `update backups set ${set.join(", ")}
     where status in ('queued', 'running') and file_name in ($1, $2) returning id`,
    values,
  );
  let found = done.rows.length > 0;
  if (!found && !kept.encrypted) {
    // Decrypted by hand (age -d) before the restore: its row names the encrypted file, whose
    // size and SHA-256 are not this file's, so only that it finished is known.
    const byHand = await query(
      `update backups set status = 'done', progress_done = progress_total, error = null,
         finished_at = coalesce(finished_at, now())
       where status in ('queued', 'running') and file_name = $1 returning id`,
      [`${kept.fileName}.age`],
    );
    found = byHand.rows.length > 0;
  }
  const failed = await query(
    `update backups set status = 'failed', finished_at = now(), error = $1
     where status in ('queued', 'running') returning id`,
    [UNDER_WAY],
  );
  return { backup: found, backupsFailed: failed.rows.length };
}

/**
 * pg-boss's active jobs: their work was under way on the server the backup was made on, and
 * whether it finished is not known here. Failed, without a retry (a receipt already sent is not
 * sent again), and with the reason the admins' jobs page shows; a singleton or stately queue
 * then takes its next job at once instead of after the job's time-out.
 */
async function settleJobs(query: Query): Promise<number> {
  if (!(await present(query, "pgboss.job"))) return 0;
  const { rows } = await query(
    `update pgboss.job set state = 'failed', completed_on = now(), output = $1::jsonb
     where state = 'active' returning id`,
    [JSON.stringify({ message: `${UNDER_WAY} Whether it finished there is not known.` })],
  );
  return rows.length;
}

/** Rows of a table with the queued/running pattern (a job's own record of its progress), marked failed. */
async function settleTable(query: Query, table: "member_imports" | "member_archives", reason: string) {
  if (!(await present(query, `public.${table}`))) return 0;
  const { rows } = await query(
    `update ${table} set status = 'failed', error = $1, finished_at = now()
     where status in ('queued', 'running') returning id`,
    [reason],
  );
  return rows.length;
}

/**
 * Settles the restored database in one transaction: the backup's own row done with `kept`'s
 * facts, every other piece of work under way then failed with its reason. A backup older than a
 * table has none of its rows to settle.
 */
export async function settleUnfinished(query: Query, kept: KeptFile): Promise<Settled> {
  await query("begin");
  try {
    const backups = await settleBackups(query, kept);
    const settled: Settled = {
      ...backups,
      jobsFailed: await settleJobs(query),
      // An import's job runs again from its next line only with its row running: failed, it stops.
      importsFailed: await settleTable(query, "member_imports", IMPORT_UNDER_WAY),
      // An archive's file was being written on the server the backup was made on.
      archivesFailed: await settleTable(query, "member_archives", ARCHIVE_UNDER_WAY),
    };
    await query("commit");
    return settled;
  } catch (error) {
    await query("rollback").catch(() => {});
    throw error;
  }
}

/** What the settling did, in a line for the operator; null when nothing was under way. */
export function settledWords(settled: Settled): string | null {
  const counted: [number, string][] = [
    [settled.backupsFailed, "other backup(s)"],
    [settled.jobsFailed, "job(s)"],
    [settled.importsFailed, "members import(s)"],
    [settled.archivesFailed, "member data archive(s)"],
  ];
  const parts = counted.filter(([count]) => count > 0).map(([count, what]) => `${count} ${what}`);
  return parts.length > 0 ? `marked failed, as under way when the backup was made: ${parts.join(", ")}` : null;
}
