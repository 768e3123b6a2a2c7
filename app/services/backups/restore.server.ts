import { createReadStream, existsSync, openAsBlob, readdirSync, statSync } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import { createGunzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { PGLITE_OPTIONS } from "~/db/client.server";
import { dumpFormat, isTarHeader, type BackupDriver } from "~/domain/backups";
import { checkTool, connectionFor, fileSha256, runTool, toolFailure } from "./dump.server";

/**
 * `npm run restore -- FILE` (decision 043): a backup into an EMPTY database, the one the server
 * would open (DATABASE_URL, else DATA_DIR/pgdata). Everything is checked before anything is
 * written: the file's format, that it is of the configured database's kind, that the target is
 * empty. The server started afterwards applies the migrations newer than the backup.
 */

export type RestoreTarget = { dataDir: string; databaseUrl: string | undefined; pgBinDir: string | undefined };

/** A restore refused before anything changed: its message is the one line the operator reads. */
export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

type Query = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * The backup being restored was under way when it was made, and holds itself as running: it is
 * done, with this file's size and SHA-256 (found by its file name). Any other backup under way
 * then is marked failed: its outcome there is not known. A backup older than the backups table
 * has none.
 */
async function settleUnfinished(query: Query, file: string) {
  const { rows } = await query("select to_regclass('public.backups') is not null as present");
  if (!(rows[0] as { present: boolean }).present) return;
  const { size } = statSync(file);
  await query(
    `update backups set status = 'done', bytes = $2, sha256 = $3, progress_done = progress_total,
       finished_at = coalesce(finished_at, now())
     where status in ('queued', 'running') and file_name = $1`,
    [path.basename(file), size, await fileSha256(file)],
  );
  await query(
    `update backups set status = 'failed', finished_at = now(),
       error = 'It was under way when the backup this database was restored from was made.'
     where status in ('queued', 'running')`,
  );
}

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

/** What the file is, checked before anything else is touched. */
export async function backupKindOf(file: string): Promise<BackupDriver> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new RestoreRefused(`${file} is not a file`);
  const kind = dumpFormat(await firstBytes(file, 5));
  if (kind === "pglite") {
    const head = await gunzippedHead(file);
    if (head && isTarHeader(head)) return kind;
  }
  if (kind === "postgres") return kind;
  throw new RestoreRefused(
    `${file} is not a memberhall backup: neither pg_dump's custom format nor an embedded database's .tar.gz`,
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

async function restorePostgres(
  target: RestoreTarget & { databaseUrl: string },
  file: string,
  log: (m: string) => void,
) {
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
    log(`restoring ${path.basename(file)} into ${where(target.databaseUrl)} with pg_restore`);
    const { dbname, env } = connectionFor(target.databaseUrl);
    // One transaction: a restore that fails part-way leaves the database as empty as it was.
    const run = await runTool(
      target.pgBinDir,
      "pg_restore",
      ["--exit-on-error", "--single-transaction", "--no-owner", "--no-privileges", `--dbname=${dbname}`, file],
      { env },
    );
    if (run.code !== 0) throw new Error(`pg_restore failed, nothing was restored: ${toolFailure("pg_restore", run)}`);
    await settleUnfinished((text, values) => client.query(text, values), file);
    // A restore brings rows, not the planner's statistics: the lists' estimates need them.
    await client.query("analyze");
  } finally {
    await client.end();
  }
}

async function restoreEmbedded(target: RestoreTarget, file: string, log: (m: string) => void) {
  const dir = path.join(target.dataDir, "pgdata");
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    const what = existsSync(path.join(dir, "PG_VERSION")) ? "an embedded database" : "files";
    throw new RestoreRefused(
      `${dir} is not empty: it holds ${what} already. Restore into an empty DATA_DIR (or move this one away first).`,
    );
  }
  if (existsSync(`${dir}.lock`)) throw new RestoreRefused(`${dir} is in use by a server (${dir}.lock): stop it first`);
  log(`restoring ${path.basename(file)} into ${dir}`);
  await mkdir(dir, { recursive: true });
  try {
    const client = await PGlite.create(dir, {
      loadDataDir: await openAsBlob(file),
      ...PGLITE_OPTIONS,
    });
    try {
      await settleUnfinished((text, values) => client.query(text, values), file);
    } finally {
      await client.close();
    }
  } catch (error) {
    // It was empty before: an unfinished restore leaves it so.
    await rm(dir, { recursive: true, force: true });
    throw new Error(`The backup could not be loaded, nothing was restored: ${(error as Error).message}`);
  }
}

/** Restores the file into the configured, empty database; refuses (RestoreRefused) before changing anything. */
export async function restoreBackup(target: RestoreTarget, file: string, log: (message: string) => void) {
  const resolved = path.resolve(file);
  const kind = await backupKindOf(resolved);
  if (kind === "postgres" && !target.databaseUrl)
    throw new RestoreRefused(
      `${file} is a PostgreSQL backup (pg_dump): set DATABASE_URL to the new, empty database to restore it into`,
    );
  if (kind === "pglite" && target.databaseUrl)
    throw new RestoreRefused(
      `${file} is a backup of the embedded database: unset DATABASE_URL to restore it into DATA_DIR (${target.dataDir})`,
    );
  if (target.databaseUrl) await restorePostgres({ ...target, databaseUrl: target.databaseUrl }, resolved, log);
  else await restoreEmbedded(target, resolved, log);
  log("restored: start the server on this database; it applies any newer migrations as it starts");
}
