import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../helpers/db";
import { startServer, type RunningServer } from "../helpers/server";

const journal = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../drizzle/meta/_journal.json"), "utf8"),
) as {
  entries: { tag: string }[];
};

/**
 * A deployment starts its servers together, on a database none of them has migrated: the
 * migration lock lets one migrate while the others wait, and they find the work done.
 */
describe.runIf(process.env.TEST_DATABASE_URL)("three servers started at once on an empty database", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let servers: RunningServer[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const started = await Promise.allSettled([1, 2, 3].map(() => startServer({ env: { DATABASE_URL: database.url } })));
    servers = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    const failed = started.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : []));
    expect(failed).toEqual([]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop();
  });

  it("applies each migration once", async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ hash: string }>("select hash from drizzle.__drizzle_migrations");
      expect(rows).toHaveLength(journal.entries.length);
      expect(new Set(rows.map((r) => r.hash)).size).toBe(rows.length);
    } finally {
      await client.end();
    }
  });

  it("has all three serving from the database", async () => {
    for (const server of servers) {
      const health = await fetch(`${server.url}/healthz`);
      expect(await health.json()).toEqual({ ok: true, db: "ok" });
      const catalogue = await (await fetch(`${server.url}/api/config/causes`)).json();
      expect(catalogue.countryCauses.US.live_causes).toContain("TS");
    }
    expect(servers).toHaveLength(3);
  });
});
