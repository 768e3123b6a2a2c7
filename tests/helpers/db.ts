import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";

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

/** A fresh, migrated database on the given driver (PGlite in memory, or a new PostgreSQL database). */
export async function createTestDatabase(driver: Driver, options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  if (driver === "pglite") {
    const handle = await openDatabase({ driver: "pglite" });
    if (options.migrate !== false) await handle.migrate();
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
