import { createReadStream, existsSync, openAsBlob, readdirSync, statSync } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import { createGunzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { PGLITE_OPTIONS } from "~/db/client.server";
import { dumpFormat, isTarHeader, type BackupDriver } from "~/domain/backups";
import { checkTool, connectionFor, countRows, fileSha256, runTool, toolFailure } from "./dump.server";
import { plainCopy, privateFolder, type PlainCopy, type PrivateFolder } from "./restore-fetch.server";
import { settledWords, settleUnfinished, type Query } from "./restore-settle.server";
import {
  driverOfName,
  locateBackup,
  missingIdentity,
  restoreSourceOf,
  RestoreRefused,
  type StoreAccess,
} from "./restore-source.server";

export { RestoreRefused } from "./restore-source.server";

/**
 * `npm run restore -- FILE | s3://bucket/key | --latest` (decisions 043 and 064): a backup into
 * an EMPTY database, the one the server would open (DATABASE_URL, else DATA_DIR/pgdata).
 * Everything is checked before anything is written: that the backup is there, its key when it
 * is encrypted, that it is of the configured database's kind, that the target is empty. The
 * server started afterwards applies the migrations newer than the backup.
 */

export type RestoreTarget = {
  dataDir: string;
  databaseUrl: string | undefined;
  pgBinDir: string | undefined;
  /** The age private key an encrypted backup is read with (BACKUP_IDENTITY, BACKUP_IDENTITY_FILE). */
  identity?: string | null;
  /** The store `s3://…` and `--latest` read (BACKUP_STORE, S3_*). */
  store?: StoreAccess;
};

export type Restored = {
  fileName: string;
  driver: BackupDriver;
  /** The restored tables' rows ("schema.table" → rows), when they were asked for. */
  counts: Record<string, number> | null;
};

type Log = (message: string) => void;

/** The first 512 bytes of a gzip stream, or what there is of them; null when it is not gzip at all. */
function gunzippedHead(file: string): Promise<Uint8Array | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const input = createReadStream(file);
    const gunzip = createGunzip();
    const finish = (value: Uint8Array | null) => {
      input.destroy();
      gunzip.destroy();
      resolve(value);
    };
    gunzip.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= 512) finish(Buffer.concat(chunks).subarray(0, 512));
    });
    gunzip.on("end", () => finish(Buffer.concat(chunks)));
    gunzip.on("error", () => finish(null));
    input.on("error", () => finish(null));
    input.pipe(gunzip);
  });
}

/** What the (decrypted) file is, checked before anything else is touched; `name` is how the operator knows it. */
export async function backupKindOf(file: string, name = file): Promise<BackupDriver> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new RestoreRefused(`${name} is not a file`);
  const handle = await open(file, "r");
  const head = Buffer.alloc(5);
  const { bytesRead } = await handle.read(head, 0, 5, 0).finally(() => handle.close());
  const kind = dumpFormat(head.subarray(0, bytesRead));
  if (kind === "pglite") {
    const inner = await gunzippedHead(file);
    if (inner && isTarHeader(inner)) return kind;
  }
  if (kind === "postgres") return kind;
  throw new RestoreRefused(
    `${name} is not a memberhall backup: neither pg_dump's custom format nor an embedded database's .tar.gz`,
  );
}

/** Refuses a backup of the other database's kind, in words that say what to set. */
function checkKind(kind: BackupDriver, target: RestoreTarget, name: string) {
  if (kind === "postgres" && !target.databaseUrl)
    throw new RestoreRefused(
      `${name} is a PostgreSQL backup (pg_dump): set DATABASE_URL to the new, empty database to restore it into`,
    );
  if (kind === "pglite" && target.databaseUrl)
    throw new RestoreRefused(
      `${name} is a backup of the embedded database: unset DATABASE_URL to restore it into DATA_DIR (${target.dataDir})`,
    );
}

const where = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ""}${parsed.pathname}`;
};

/** The relations a database holds outside PostgreSQL's own schemas, for a refusal that names them. */
async function relationsIn(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and n.nspname not in ('pg_catalog', 'information_schema')
       and n.nspname not like 'pg\\_%'
     order by 1`,
  );
  return rows.map((row) => row.name);
}

/** A connection to the target database that is empty and that this pg_restore can fill; refused otherwise. */
async function emptyPostgres(target: RestoreTarget & { databaseUrl: string }): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: target.databaseUrl, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new RestoreRefused(
      `The database at ${where(target.databaseUrl)} did not answer: ${(error as Error).message}`,
    );
  }
  try {
    const found = await relationsIn(client);
    if (found.length > 0) {
      const named = found.slice(0, 3).join(", ") + (found.length > 3 ? ", …" : "");
      throw new RestoreRefused(
        `The database at ${where(target.databaseUrl)} is not empty: it holds ${found.length} tables or other relations (${named}). Restore into a new, empty database.`,
      );
    }
    const { rows } = await client.query<{ version: number }>(
      "select current_setting('server_version_num')::int / 10000 as version",
    );
    try {
      await checkTool(target.pgBinDir, "pg_restore", rows[0]!.version);
    } catch (error) {
      throw new RestoreRefused((error as Error).message);
    }
    return client;
  } catch (error) {
    await client.end().catch(() => {});
    throw error;
  }
}

/** The embedded database's folder, refused unless it is empty and no server has it open. */
function emptyEmbedded(target: RestoreTarget): string {
  const dir = path.join(target.dataDir, "pgdata");
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    const what = existsSync(path.join(dir, "PG_VERSION")) ? "an embedded database" : "files";
    throw new RestoreRefused(
      `${dir} is not empty: it holds ${what} already. Restore into an empty DATA_DIR (or move this one away first).`,
    );
  }
  if (existsSync(`${dir}.lock`)) throw new RestoreRefused(`${dir} is in use by a server (${dir}.lock): stop it first`);
  return dir;
}

/** Checks the target before a backup is downloaded or decrypted: a refusal costs no download. */
async function checkTarget(target: RestoreTarget) {
  if (target.databaseUrl) await (await emptyPostgres({ ...target, databaseUrl: target.databaseUrl })).end();
  else emptyEmbedded(target);
}

/** Settles the work under way in the backup (restore-settle.server.ts) and counts the rows when asked. */
async function afterRestore(query: Query, copy: PlainCopy, count: boolean, log: Log) {
  const settled = await settleUnfinished(query, copy.kept);
  const words = settledWords(settled);
  if (words) log(words);
  return count ? countRows(async (text) => (await query(text)).rows as Array<Record<string, unknown>>) : null;
}

async function restorePostgres(
  target: RestoreTarget & { databaseUrl: string },
  copy: PlainCopy,
  count: boolean,
  log: Log,
) {
  const client = await emptyPostgres(target);
  try {
    log(`restoring ${copy.kept.fileName} into ${where(target.databaseUrl)} with pg_restore`);
    const { dbname, env } = connectionFor(target.databaseUrl);
    // One transaction: a restore that fails part-way leaves the database as empty as it was.
    const run = await runTool(
      target.pgBinDir,
      "pg_restore",
      ["--exit-on-error", "--single-transaction", "--no-owner", "--no-privileges", `--dbname=${dbname}`, copy.file],
      { env },
    );
    if (run.code !== 0) throw new Error(`pg_restore failed, nothing was restored: ${toolFailure("pg_restore", run)}`);
    const query: Query = (text, values) => client.query(text, values);
    // A restore brings rows, not the planner's statistics: the lists' estimates need them.
    const counts = await afterRestore(query, copy, count, log);
    await client.query("analyze");
    return counts;
  } finally {
    await client.end();
  }
}

async function restoreEmbedded(target: RestoreTarget, copy: PlainCopy, count: boolean, log: Log) {
  const dir = emptyEmbedded(target);
  log(`restoring ${copy.kept.fileName} into ${dir}`);
  await mkdir(dir, { recursive: true });
  try {
    const client = await PGlite.create(dir, {
      loadDataDir: await openAsBlob(copy.file),
      ...PGLITE_OPTIONS,
    });
    try {
      return await afterRestore((text, values) => client.query(text, values), copy, count, log);
    } finally {
      await client.close();
    }
  } catch (error) {
    // It was empty before: an unfinished restore leaves it so.
    await rm(dir, { recursive: true, force: true });
    throw new Error(`The backup could not be loaded, nothing was restored: ${(error as Error).message}`);
  }
}

/**
 * Restores the backup `source` names (a file, `s3://bucket/key` or `--latest`) into the
 * configured, empty database; refuses (RestoreRefused) before changing anything.
 */
export async function restoreBackup(
  target: RestoreTarget,
  source: string,
  log: Log,
  options: { count?: boolean } = {},
): Promise<Restored> {
  const driver: BackupDriver = target.databaseUrl ? "postgres" : "pglite";
  const located = await locateBackup(restoreSourceOf(source), target.store, driver, log);
  if (located.encrypted && !target.identity) throw missingIdentity(located.name);
  // A plain file's kind is in its header; an encrypted or stored one's in its name until it is read
  // (and in its header once it is).
  if (located.from === "file" && !located.encrypted) checkKind(await backupKindOf(located.file), target, source);
  else {
    const named = driverOfName(located.name);
    if (named) checkKind(named, target, located.name);
  }
  await checkTarget(target);
  let folder: PrivateFolder | null = null;
  try {
    let copy: PlainCopy;
    if (located.from === "file" && !located.encrypted) {
      const kept = { fileName: located.name, bytes: located.bytes, encrypted: false, storedAt: null };
      copy = { file: located.file, kept: { ...kept, sha256: await fileSha256(located.file) } };
    } else {
      // The embedded database's DATA_DIR is made now, so that the copy is on the disk it goes to.
      if (!target.databaseUrl) await mkdir(target.dataDir, { recursive: true });
      folder = await privateFolder(target.dataDir);
      copy = await plainCopy(located, target.identity ?? null, folder.dir, log);
      checkKind(await backupKindOf(copy.file, located.name), target, located.name);
    }
    const count = options.count ?? false;
    const counts = target.databaseUrl
      ? await restorePostgres({ ...target, databaseUrl: target.databaseUrl }, copy, count, log)
      : await restoreEmbedded(target, copy, count, log);
    log("restored: start the server on this database; it applies any newer migrations as it starts");
    return { fileName: located.name, driver, counts };
  } finally {
    await folder?.dispose();
  }
}

/**
 * A restore whose tables' rows are counted once it is done, for the test restore that compares
 * them with the backup's snapshot (and `npm run restore -- FILE --counts`, which prints them).
 */
export async function restoreAndCount(target: RestoreTarget, file: string, log: Log): Promise<Record<string, number>> {
  const restored = await restoreBackup(target, file, log, { count: true });
  return restored.counts ?? {};
}
