import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { migrationsFolder, openDatabase, PGLITE_OPTIONS, type DatabaseHandle } from "~/db/client.server";

export type Driver = "pglite" | "postgres";

/** The drivers the integration suite covers: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const drivers: Driver[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

export type TestDatabase = DatabaseHandle & { url?: string; dispose(): Promise<void> };

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** A new empty database of its own on PostgreSQL, dropped by dispose(). */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL is not set");
  const name = `memberhall_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    url: withDatabase(adminUrl, name),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** The migrations' own hash: a template made under other migrations is never used. */
function migrationsHash(): string {
  const folder = migrationsFolder();
  const hash = createHash("sha256");
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]))
      .sort();
  for (const file of files(folder)) hash.update(path.relative(folder, file)).update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

/**
 * A migrated PGlite database's files, made once for all the suites' files and kept in the
 * temporary folder: a new database starts from them instead of running initdb and every
 * migration again.
 */
async function migratedTemplate(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `memberhall-pglite-${migrationsHash()}.tar.gz`);
  if (existsSync(file)) return new Blob([readFileSync(file)]);
  const client = await PGlite.create(PGLITE_OPTIONS);
  const handle = await openDatabase({ driver: "pglite", pglite: client });
  await handle.migrate();
  const dump = await client.dumpDataDir("gzip");
  await handle.close();
  const bytes = Buffer.from(await dump.arrayBuffer());
  // Written whole, then renamed: a file of another worker's is never read half made.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(partial, bytes);
  renameSync(partial, file);
  return new Blob([bytes]);
}

/** A fresh, migrated database on the given driver (PGlite in memory, or a new PostgreSQL database). */
export async function createTestDatabase(driver: Driver, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  if (driver === "pglite") {
    const pglite =
      options.migrate === false
        ? undefined
        : await PGlite.create({
            loadDataDir: await migratedTemplate(),
            ...PGLITE_OPTIONS,
          });
    const handle = await openDatabase({ driver: "pglite", pglite });
    return { ...handle, dispose: () => handle.close() };
  }
  const created = await createPostgresDatabase();
  const handle = await openDatabase({ driver: "postgres", url: created.url, poolMax: 4 });
  if (options.migrate !== false) await handle.migrate();
  return {
    ...handle,
    url: created.url,
    async dispose() {
      await handle.close();
      await created.drop();
    },
  };
}
