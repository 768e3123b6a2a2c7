import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import type { DatabaseHandle } from "~/db/client.server";
import { dumpErrors, toolMajorVersion } from "~/domain/backups";

/** The PostgreSQL client tools a backup and a restore run, as child processes so the event loop stays free. */

export type PgTool = "pg_dump" | "pg_restore";

/** PG_BIN_DIR, or undefined for the PATH's tools. */
type BinDir = string | undefined;

const toolPath = (bin: BinDir, tool: PgTool) => (bin ? path.join(bin, tool) : tool);

const notFoundMessage = (bin: BinDir, tool: PgTool, wanted: string) =>
  `${tool} was not found (${bin ? `in PG_BIN_DIR, ${bin}` : "on the PATH"}): install PostgreSQL's client tools, ${wanted}`;

/**
 * A connection string without its password, which goes in PGPASSWORD instead: a process's
 * arguments are visible to every user of the machine, its environment is not.
 */
export function connectionFor(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {} };
}

type Run = { code: number | null; lines: string[] };

/** Runs a tool, each line of its stderr given to `onLine` as it comes; `signal` ends it. */
export function runTool(
  bin: BinDir,
  tool: PgTool,
  args: string[],
  options: { env?: Record<string, string>; signal?: AbortSignal; onLine?: (line: string) => void } = {},
): Promise<Run> {
  const command = toolPath(bin, tool);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines: string[] = [];
    const stop = () => child.kill("SIGTERM");
    options.signal?.addEventListener("abort", stop, { once: true });
    child.stdout.resume();
    createInterface({ input: child.stderr }).on("line", (line) => {
      // The error lines are kept; the verbose ones only counted.
      if (
        !/^pg_(dump|restore): (dumping|reading|saving|creating|processing|identifying|finding|last|flagging)/.test(line)
      )
        lines.push(line);
      options.onLine?.(line);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      options.signal?.removeEventListener("abort", stop);
      reject(error.code === "ENOENT" ? new Error(notFoundMessage(bin, tool, "the server's version or newer")) : error);
    });
    child.on("close", (code) => {
      options.signal?.removeEventListener("abort", stop);
      resolve({ code, lines });
    });
  });
}

/** What went wrong in a tool's run, in its own words. */
export const toolFailure = (tool: PgTool, run: Run) =>
  dumpErrors(run.lines) || run.lines.slice(-3).join("; ") || `${tool} ended with code ${run.code}`;

/**
 * Checks that the tool runs and is not older than the server: pg_dump refuses a newer server
 * ("server version mismatch") and pg_restore cannot read a newer pg_dump's file.
 */
export async function checkTool(bin: BinDir, tool: PgTool, serverMajor: number): Promise<void> {
  let version = "";
  const child = spawn(toolPath(bin, tool), ["--version"], { stdio: ["ignore", "pipe", "ignore"] });
  child.stdout.on("data", (chunk) => (version += chunk));
  await new Promise<void>((resolve, reject) => {
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT" ? new Error(notFoundMessage(bin, tool, `version ${serverMajor} or newer`)) : error,
      ),
    );
    child.on("close", () => resolve());
  });
  const major = toolMajorVersion(version);
  if (major === null) throw new Error(`${tool} --version did not say its version (${version.trim() || "nothing"})`);
  if (major < serverMajor)
    throw new Error(
      `${tool} is version ${major}, older than the PostgreSQL server (${serverMajor}): install version ${serverMajor} or newer (set PG_BIN_DIR to its folder)`,
    );
}

/** The SHA-256 of a file, read as a stream. */
export async function fileSha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * Writes the embedded database's own dump (a gzipped tarball of its data directory) to `file`.
 * PGlite runs in this process and makes the dump in one piece: resolves with the longest time
 * the event loop was held meanwhile, in milliseconds.
 */
export async function dumpEmbedded(database: DatabaseHandle, file: string): Promise<{ heldMs: number }> {
  if (!database.dumpDataDir) throw new Error("This database is not the embedded one");
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  try {
    const blob = await database.dumpDataDir();
    await writeFile(file, Buffer.from(await blob.arrayBuffer()));
  } finally {
    delay.disable();
  }
  return { heldMs: Math.round(delay.max / 1e6) };
}

/** The rows of each table in a dump's snapshot, and the tables that had none to count (written to during an embedded dump). */
export type DumpCounts = { counts: Record<string, number>; notCompared: string[] };

/** Runs a query and gives its rows: a pg client's, PGlite's or drizzle's `execute` adapted to one shape. */
export type RowQuery = (text: string) => Promise<Array<Record<string, unknown>>>;

/**
 * The rows of every table outside PostgreSQL's own schemas ("schema.table" → rows): the
 * app's, its migrations' record, the job queue's. A backup's snapshot and its test restore
 * count the same way, so their figures compare.
 */
export async function countRows(query: RowQuery): Promise<Record<string, number>> {
  const tables = await query(
    `select quote_ident(n.nspname) || '.' || quote_ident(c.relname) as name from pg_class c
     join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and not c.relispartition
       and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
     order by 1`,
  );
  const names = tables.map((row) => String(row.name));
  const counts: Record<string, number> = {};
  // One statement for all tables: a snapshot's transaction, or PGlite's one connection, answers it at once.
  for (let start = 0; start < names.length; start += 200) {
    const part = names.slice(start, start + 200);
    const [row] = await query(
      `select ${part.map((name, i) => `(select count(*) from ${name})::bigint as c${i}`).join(", ")}`,
    );
    part.forEach((name, i) => (counts[name] = Number(row![`c${i}`])));
  }
  return counts;
}
