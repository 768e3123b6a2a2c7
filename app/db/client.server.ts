import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema";
import { isAlive } from "~/lib/process.server";
import { SINGLE_LOCK } from "./locks";
import { queryTally } from "./query-count.server";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Rows of raw SQL, as node-postgres and PGlite both give them. */
export type SqlRows = { rows: Record<string, unknown>[] };

/** The rows `db.execute(sql`…`)` answers: both drivers give them as `{ rows }`. */
export function rowsOf<Row = Record<string, unknown>>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}

export type DatabaseHandle = {
  db: Database;
  driver: "pglite" | "postgres";
  /** Resolves when the database answers a trivial query within the time given. */
  ping(timeoutMs?: number): Promise<void>;
  /** Applies the committed migrations; safe to call from several servers at once. */
  migrate(): Promise<void>;
  /**
   * Runs `work` while this server holds the advisory lock `lockId` (on a connection of its
   * own), so that across every server on the database one runs it at a time.
   */
  exclusively<T>(lockId: number, work: () => Promise<T>): Promise<T>;
  /**
   * Raw SQL for the job runner (pg-boss's `db` option). With values: one statement with
   * parameters. Without: one or more statements, the last one's rows returned; a failed
   * script that opened a transaction is rolled back, so the connection is never left aborted.
   */
  executeSql(text: string, values?: unknown[]): Promise<SqlRows>;
  /**
   * Listens to a channel's notifications (`pg_notify`) from every server on the database.
   * PostgreSQL: on a connection of its own, opened again after it is lost; `onState` says when
   * notifications may have been missed (false) and when they are heard again (true).
   */
  listen(channel: string, onMessage: (payload: string) => void, onState: (listening: boolean) => void): Listening;
  /** The PostgreSQL pool's connections and the queries waiting for one; null on PGlite, which has no pool. */
  poolStats(): { total: number; idle: number; waiting: number } | null;
  /** The embedded database's files as a gzipped tarball (PGlite only): its backup. */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
};

export type Listening = { stop(): Promise<void> };

/** Told how long each query took, in seconds, as the app waited for it. */
export type QueryTimer = (seconds: number) => void;

export type DatabaseOptions = (
  | { driver: "postgres"; url: string; poolMax?: number; onPoolError?: (error: Error) => void }
  /** `dir` undefined keeps the embedded database in memory (tests). */
  | { driver: "pglite"; dir?: string; pglite?: PGlite }
) & { timeQuery?: QueryTimer };

/**
 * How every PGlite of the app starts: with the extensions the migrations create (PostgreSQL
 * ships them, PGlite loads them), and with 32 MB of shared buffers rather than PostgreSQL's
 * 128 MB: they live in the server's own memory, and once a busy server has read its tables they
 * are all resident (about 130 MB more on the demo's data). Pages beyond them are read from the
 * data directory's files, which the operating system keeps cached outside the process.
 */
export const PGLITE_OPTIONS = {
  extensions: { pg_trgm },
  startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=32MB"],
};

/** Finds the committed migrations whether this runs from source or from a bundle. */
export function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "drizzle");
    if (existsSync(path.join(candidate, "meta", "_journal.json"))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("The drizzle/ migrations folder was not found");
    dir = parent;
  }
}

// Any 64-bit number that is ours alone; it serialises migrations across app servers.
const MIGRATION_LOCK_ID = SINGLE_LOCK.migrations;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const lastRows = (results: { rows: unknown[] }[]): SqlRows => ({
  rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[],
});

/** PGlite allows one process per data directory; a second one would corrupt it. */
function claimDirectory(dir: string): () => void {
  const lockFile = `${dir}.lock`;
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, "utf8").trim());
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) {
      throw new Error(`The embedded database at ${dir} is in use by process ${pid}; stop it first`);
    }
  }
  writeFileSync(lockFile, String(process.pid));
  return () => rmSync(lockFile, { force: true });
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.driver === "postgres") {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolMax ?? 10,
      connectionTimeoutMillis: 5_000,
      // A new connection costs its first requests tens of milliseconds (the server starts a
      // backend, whose caches start empty, and every statement is prepared again): the
      // connections stay through a quiet quarter of an hour rather than half a minute.
      idleTimeoutMillis: 15 * 60_000,
    });
    // An idle client that loses its server emits here; without a listener the process dies.
    pool.on("error", (error) => options.onPoolError?.(error));
    const timeQuery = options.timeQuery;
    if (timeQuery) pool.on("connect", (client) => timeClientQueries(client, timeQuery));
    const db = drizzleNodePg(pool, { schema, logger: queryTally }) as unknown as Database;
    const locked = async <T>(lockId: number, work: (client: pg.PoolClient) => Promise<T>) => {
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [lockId]);
        try {
          return await work(client);
        } finally {
          await client.query("select pg_advisory_unlock($1)", [lockId]);
        }
      } finally {
        client.release();
      }
    };
    return {
      db,
      driver: "postgres",
      async ping(timeoutMs = 2_000) {
        await withTimeout(pool.query("select 1"), timeoutMs, "PostgreSQL");
      },
      async migrate() {
        await locked(MIGRATION_LOCK_ID, (client) =>
          migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder: migrationsFolder() }),
        );
      },
      exclusively: (lockId, work) => locked(lockId, work),
      async executeSql(text, values) {
        if (values?.length) return (await pool.query(text, values)) as SqlRows;
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          const result = (await client.query(text)) as unknown as SqlRows | SqlRows[];
          return Array.isArray(result) ? lastRows(result) : result;
        } catch (error) {
          // A script that failed after its BEGIN leaves the connection in an aborted transaction.
          await client.query("rollback").catch((failure: Error) => (broken = failure));
          throw error;
        } finally {
          client.release(broken);
        }
      },
      listen(channel, onMessage, onState) {
        return listenOnPostgres(options.url, channel, onMessage, onState);
      },
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      async close() {
        await pool.end();
      },
    };
  }

  const release = options.dir && !options.pglite ? claimDirectory(options.dir) : () => {};
  let client: PGlite;
  try {
    client = options.pglite ?? (await PGlite.create(options.dir, PGLITE_OPTIONS));
  } catch (error) {
    release();
    throw error;
  }
  if (options.timeQuery) timePgliteQueries(client, options.timeQuery);
  const db = drizzlePglite(client, { schema, logger: queryTally }) as unknown as Database;
  return {
    db,
    driver: "pglite",
    async ping(timeoutMs = 2_000) {
      await withTimeout(db.execute(sql`select 1`), timeoutMs, "The embedded database");
    },
    async migrate() {
      await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: migrationsFolder() });
    },
    // One process holds the embedded database.
    exclusively: (_lockId, work) => work(),
    async executeSql(text, values) {
      // PGlite's query() takes one statement; exec() takes a script without parameters. One
      // connection serves the whole app, so a script runs inside transaction(): it holds the
      // connection throughout and rolls a failure back before any other query runs.
      if (values?.length) return (await client.query(text, values)) as SqlRows;
      return lastRows(await client.transaction((tx) => tx.exec(text)));
    },
    listen(channel, onMessage, onState) {
      // One process holds the embedded database: its own notifications are all there are.
      const unlisten = client.listen(channel, onMessage).then((stop) => {
        onState(true);
        return stop;
      });
      return {
        async stop() {
          onState(false);
          if (!client.closed) await (await unlisten)();
        },
      };
    },
    poolStats: () => null,
    dumpDataDir: () => client.dumpDataDir("gzip"),
    async close() {
      if (!client.closed) await client.close();
      release();
    },
  };
}

/** Calls `timeQuery` with how long `work` took, whether it succeeded or failed. */
function timed<T>(work: () => Promise<T>, timeQuery: QueryTimer): Promise<T> {
  const started = performance.now();
  return work().finally(() => timeQuery((performance.now() - started) / 1000));
}

type AnyQuery = (...args: unknown[]) => unknown;

/**
 * node-postgres has no hook around a query: each pooled connection's query() is wrapped as the
 * pool opens it, so drizzle's queries, transactions and the job runner's are all timed. The pool
 * calls it with a callback, drizzle without (a promise); a streamed query is left untimed.
 */
function timeClientQueries(client: pg.PoolClient, timeQuery: QueryTimer) {
  const query = client.query.bind(client) as AnyQuery;
  (client as unknown as { query: AnyQuery }).query = (...args) => {
    const started = performance.now();
    const done = () => timeQuery((performance.now() - started) / 1000);
    const callback = args.at(-1);
    if (typeof callback === "function") {
      return query(...args.slice(0, -1), (...results: unknown[]) => {
        done();
        return (callback as AnyQuery)(...results);
      });
    }
    const result = query(...args);
    if (result instanceof Promise) return result.finally(done);
    return result;
  };
}

/**
 * PGlite's queries, inside a transaction or not: its query() and exec(), and those of the
 * transaction object each transaction() hands its work. One connection serves the process, so
 * the time includes the wait for it, which is what the app feels.
 */
function timePgliteQueries(client: PGlite, timeQuery: QueryTimer) {
  const query = client.query.bind(client);
  const exec = client.exec.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = (...args) => timed(() => query(...args), timeQuery);
  client.exec = (...args) => timed(() => exec(...args), timeQuery);
  client.transaction = (work) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx);
      const txExec = tx.exec.bind(tx);
      tx.query = (...args) => timed(() => txQuery(...args), timeQuery);
      tx.exec = (...args) => timed(() => txExec(...args), timeQuery);
      return work(tx);
    });
}

const RELISTEN_MS = [100, 500, 1_000, 2_000, 5_000];

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other queries). When it
 * is lost, `onState(false)` at once, then it connects again, waiting longer each time.
 */
function listenOnPostgres(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  onState: (listening: boolean) => void,
): Listening {
  let stopped = false;
  let client: pg.Client | null = null;
  let timer: NodeJS.Timeout | undefined;
  let failures = 0;
  const lost = (connection: pg.Client) => {
    if (client !== connection) return;
    client = null;
    onState(false);
    connection.end().catch(() => {});
    if (!stopped) timer = setTimeout(connect, RELISTEN_MS[Math.min(failures++, RELISTEN_MS.length - 1)]);
  };
  const connect = async () => {
    const connection = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    client = connection;
    connection.on("error", () => lost(connection));
    connection.on("end", () => lost(connection));
    connection.on("notification", (message) => {
      if (message.channel === channel) onMessage(message.payload ?? "");
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (stopped || client !== connection) return;
      failures = 0;
      onState(true);
    } catch {
      lost(connection);
    }
  };
  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      const connection = client;
      client = null;
      onState(false);
      await connection?.end().catch(() => {});
    },
  };
}
