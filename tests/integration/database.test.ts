import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rowsOf } from "~/db/client.server";
import { rowsFromJson } from "~/db/json-rows.server";
import { causes, countryCauses, coupons, nolEntries, plans, subscriptions, users } from "~/db/schema";
import { DEMO_COUNTRY, DEMO_USERS, demoLogins, seedDemo } from "~/db/seed.server";
import { verifyPassword } from "~/lib/password.server";
import { createPostgresDatabase, createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createUser } from "../helpers/users";

describe.each(drivers)("database on %s", (driver) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("answers a ping", async () => {
    await expect(database.ping()).resolves.toBeUndefined();
  });

  it("creates every table of the schema", async () => {
    const result = await database.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public'`,
    );
    // Both drivers answer with node-postgres' result shape.
    const { rows } = result as unknown as { rows: { table_name: string }[] };
    const tables = new Set(rows.map((r) => r.table_name));
    for (const table of [
      "users",
      "sessions",
      "causes",
      "country_causes",
      "plans",
      "coupons",
      "coupon_discounts",
      "coupon_plans",
      "nol_entries",
      "claims",
      "notices",
      "notice_cfs",
      "notarizations",
      "pending_submissions",
      "form_entries",
      "respondents",
      "error_reports",
      "newsletter_subscriptions",
      "support_requests",
      "mail_outbox",
      "webhook_events",
      "audit_log",
      "jobs",
    ]) {
      expect(tables, table).toContain(table);
    }
  });

  it("applying the migrations again changes nothing", async () => {
    await expect(database.migrate()).resolves.toBeUndefined();
  });

  it("seeds the demo community into a new database", async () => {
    expect(await seedDemo(database.db, { demoPassword: "demo-password-1" })).toBe(true);

    const people = await database.db.select().from(users);
    expect(people.map((u) => u.username).sort()).toEqual(DEMO_USERS.map((u) => u.username).sort());
    const byName = Object.fromEntries(people.map((u) => [u.username, u]));
    expect(byName.admin).toMatchObject({ admin: true, needsSetup: false });
    expect(byName.creator).toMatchObject({ nolCreator: true, nolTester: false, admin: false });
    expect(byName.tester).toMatchObject({ nolTester: true, nolCreator: false });
    expect(byName.member).toMatchObject({ admin: false, nolCreator: false, nolTester: false, needsSetup: false });
    expect(byName.newbie).toMatchObject({ needsSetup: true });
    expect(new Set(people.map((u) => u.countryCode))).toEqual(new Set([DEMO_COUNTRY]));
    expect(await verifyPassword("demo-password-1", byName.member!.passwordHash!)).toBe(true);

    const active = await database.db
      .select({ userId: subscriptions.userId })
      .from(subscriptions)
      .where(eq(subscriptions.status, "ACTIVE"));
    expect(active).toHaveLength(4);
    expect(active.map((s) => s.userId)).not.toContain(byName.newbie!.id);

    expect((await database.db.select().from(plans)).length).toBeGreaterThanOrEqual(2);
    expect((await database.db.select().from(coupons)).length).toBeGreaterThanOrEqual(2);
  });

  it("seeds at least three countries with causes in each state, the demo country among them", async () => {
    const rows = await database.db.select().from(countryCauses);
    const states = new Map<string, Set<string>>();
    for (const row of rows) {
      if (!states.has(row.countryCode)) states.set(row.countryCode, new Set());
      states.get(row.countryCode)!.add(row.status);
    }
    const complete = [...states].filter(([, s]) => s.size === 3).map(([c]) => c);
    expect(complete.length).toBeGreaterThanOrEqual(3);
    expect(complete).toContain(DEMO_COUNTRY);
  });

  it("does not seed a database that already has members", async () => {
    const [before] = await database.db.select({ n: count() }).from(causes);
    expect(await seedDemo(database.db, { demoPassword: "another-password" })).toBe(false);
    const [after] = await database.db.select({ n: count() }).from(causes);
    expect(after!.n).toBe(before!.n);
    expect(await demoLogins(database.db)).toHaveLength(DEMO_USERS.length);
  });

  it("refuses a coupon with both amount_off and percent_off", async () => {
    await expect(
      database.db
        .insert(coupons)
        .values({ id: "BOTH", name: "Both", duration: "once", amountOff: 100, percentOff: "5" }),
    ).rejects.toThrow();
  });

  it("keeps usernames unique whatever their case", async () => {
    await expect(
      database.db.insert(users).values({ username: "ADMIN", email: "other@memberhall.example" }),
    ).rejects.toThrow();
  });

  it("reads a row through to_jsonb as drizzle reads the row itself", async () => {
    const user = await createUser(database.db);
    await database.db
      .insert(causes)
      .values({ code: "JR", label: "JSON rows", name: "JSON Rows" })
      .onConflictDoNothing();
    await database.db.insert(nolEntries).values({
      id: "194-77",
      form: "NoLBilling",
      formId: 194,
      entryNumber: 77,
      userId: user.id,
      causeCode: "JR",
      descriptiveVersion: 'Ünïcode "quoted" version',
      round: 2,
      editHash: "e".repeat(32),
      viewHash: "v".repeat(32),
      nolTracking: [true, false],
      nolMailingDate: ["2026-06-01", null],
      tbValue: 3,
      billMailingDate: "2026-06-03",
      billProofOfDelivery: false,
      administrativeJudgment: 123_456_789_012,
      profile: { name: "A", nested: { list: [1, "two"] } },
      data: { text: "123" },
    });
    const drizzleRows = await database.db.select().from(nolEntries).where(eq(nolEntries.id, "194-77"));
    const [json] = rowsOf<{ rows: Record<string, unknown>[] }>(
      await database.db.execute(
        sql`select json_agg(to_jsonb(${nolEntries})) as rows from ${nolEntries} where ${nolEntries.id} = '194-77'`,
      ),
    );
    expect(rowsFromJson(nolEntries, json!.rows)).toEqual(drizzleRows);
    expect(drizzleRows[0]!.createdAt).toBeInstanceOf(Date);
  });
});

describe("embedded database on disk", () => {
  it("keeps its data when closed and opened again", async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "memberhall-db-")), "pgdata");
    const first = await openDatabase({ driver: "pglite", dir });
    await first.migrate();
    await first.db.insert(causes).values({ code: "KEEP", label: "Kept", name: "Kept Cause" });
    await first.close();

    const second = await openDatabase({ driver: "pglite", dir });
    await second.migrate();
    const rows = await second.db.select().from(causes).where(eq(causes.code, "KEEP"));
    expect(rows).toHaveLength(1);
    // The shared buffers live in the server's memory: 32 MB of them, not PostgreSQL's 128.
    const buffers = rowsOf<{ shared_buffers: string }>(await second.db.execute(sql`show shared_buffers`));
    expect(buffers[0]!.shared_buffers).toBe("32MB");
    await second.close();
  });

  it("refuses a data directory that another live process holds", async () => {
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "memberhall-db-")), "pgdata");
    const { writeFileSync } = await import("node:fs");
    // The parent of this test process is alive for as long as the test runs.
    writeFileSync(`${dir}.lock`, String(process.ppid));
    await expect(openDatabase({ driver: "pglite", dir })).rejects.toThrow(/in use by process/);
  });
});

describe.runIf(drivers.includes("postgres"))("PostgreSQL with several servers", () => {
  it("lets servers that start together migrate and seed once", async () => {
    const created = await createPostgresDatabase();
    const handles = await Promise.all(
      [1, 2, 3].map(() => openDatabase({ driver: "postgres", url: created.url, poolMax: 2 })),
    );
    try {
      await Promise.all(handles.map((h) => h.migrate()));
      const seeded = await Promise.all(handles.map((h) => seedDemo(h.db, { demoPassword: "demo-password-1" })));
      expect(seeded.filter(Boolean)).toHaveLength(1);
      const [row] = await handles[0]!.db.select({ n: count() }).from(users);
      expect(row!.n).toBe(DEMO_USERS.length);
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await created.drop();
    }
  });
});
