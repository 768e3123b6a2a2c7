import type { AppLoadContext } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessions, users } from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { loader as recordsLoader } from "~/routes/db.($entity).($view)";
import { loader as exportLoader } from "~/routes/db_.$entity.export[.]csv";
import { COUNT_CAP, encodeCursor, type Cursor } from "~/domain/listing";
import { audit } from "~/services/audit.server";
import { ENTITIES, entityQuery } from "~/services/data-browser.server";
import { listPage } from "~/services/listing.server";
import { siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession } from "../helpers/users";

type Route = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;

/** The admins' data browser (/db/{entity}/{id?}): every main table, read-only, without secrets. */
describe.each(drivers)("the data browser (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  const cookie: Record<string, string> = {};
  const secrets: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database);
    for (const u of await database.db.select().from(users)) {
      const session = await createSession(database.db, u.id);
      cookie[u.username] = await siteCookies(context.app!.config).session.serialize(session.id);
      secrets.push(session.id);
      if (u.passwordHash) secrets.push(u.passwordHash);
    }
  });
  afterAll(async () => {
    await database?.dispose();
  });

  async function call(route: Route, path: string, params: Record<string, string>, as = "admin") {
    try {
      return (await route({
        request: new Request(`http://localhost${path}`, { headers: { cookie: cookie[as] ?? "" } }),
        params,
        context,
      })) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  }

  it("lists every kind of record, and none of them shows a secret", async () => {
    const index = await (await call(recordsLoader, "/db", {})).json();
    expect(index.tables.map((t: { name: string }) => t.name)).toEqual(Object.keys(ENTITIES));
    for (const name of Object.keys(ENTITIES)) {
      const page = await call(recordsLoader, `/db/${name}`, { entity: name });
      expect(page.status, name).toBe(200);
      const text = await page.text();
      const csv = await (await call(exportLoader, `/db/${name}/export.csv`, { entity: name })).text();
      for (const secret of secrets) {
        expect(text.includes(secret), `${name} shows a secret`).toBe(false);
        expect(csv.includes(secret), `${name}'s CSV holds a secret`).toBe(false);
      }
      const header = csv.split("\r\n")[0]!.split(",");
      // The record's id (a session's code) leads, once.
      expect(["id", "code"], name).toContain(header[0]!.toLowerCase());
      expect(
        header.filter((h) => ["id", "code"].includes(h.toLowerCase())),
        name,
      ).toHaveLength(1);
    }
  });

  it("heads the columns with words people use, not the columns' abbreviations", async () => {
    const headings = async (name: string) =>
      (await (await call(exportLoader, `/db/${name}/export.csv`, { entity: name })).text())
        .split("\r\n")[0]!
        .split(",");
    expect(await headings("sessions")).toContain("IP address");
    expect(await headings("payments")).toContain("Amount (cents)");
    expect(await headings("notices")).toContain("Round count");
    for (const name of Object.keys(ENTITIES)) {
      for (const heading of await headings(name)) {
        expect(heading, name).not.toMatch(/^(Ip|Id)$|\b(cnt|nz|cf|url)\b/);
      }
    }
  });

  it("names a session by its code, and opens it by that code", async () => {
    const list = await (
      await call(recordsLoader, "/db/sessions?sort=createdAt&dir=asc", { entity: "sessions" })
    ).json();
    const [first] = list.rows as { id: string }[];
    expect(first!.id).toMatch(/^[0-9a-f]{16}$/);
    const record = await (
      await call(recordsLoader, `/db/sessions/${first!.id}`, { entity: "sessions", view: first!.id })
    ).json();
    expect(record.fields.find((f: { key: string }) => f.key === "id").value).toBe(first!.id);
    const [row] = await database.db.select().from(sessions).limit(1);
    expect((await call(recordsLoader, `/db/sessions/${row!.id}`, { entity: "sessions", view: row!.id })).status).toBe(
      404,
    );
  });

  it("filters a list on its columns and pages it, and opens one record", async () => {
    const audit = await (await call(recordsLoader, "/db/plans?kind=subscription", { entity: "plans" })).json();
    expect(audit.rows.length).toBeGreaterThan(0);
    expect(audit.rows.every((r: { kind: string }) => r.kind === "subscription")).toBe(true);
    const refused = await (await call(recordsLoader, "/db/plans?kind=free-lunch", { entity: "plans" })).json();
    expect(refused.errors).toEqual({ kind: 'Kind: "free-lunch" is not one of the choices' });
    const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
    const record = await (
      await call(recordsLoader, `/db/members/${admin!.id}`, { entity: "members", view: admin!.id })
    ).json();
    expect(record.fields.find((f: { key: string }) => f.key === "username").value).toBe("admin");
  });

  it("filters a uuid, a date or a numeric column by the text it shows", async () => {
    const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
    for (const [name, search] of [
      ["sessions", `userId=${admin!.id.slice(0, 8)}`],
      ["sessions", "userId=not-a-uuid"],
      ["nol_entries", "billMailingDate=2026"],
      ["coupons", "percentOff=5"],
    ] as const) {
      const response = await call(recordsLoader, `/db/${name}?${search}`, { entity: name });
      expect(response.status, `${name}?${search}`).toBe(200);
    }
    const mine = await (
      await call(recordsLoader, `/db/sessions?userId=${admin!.id.slice(0, 8)}`, { entity: "sessions" })
    ).json();
    expect(mine.rows.length).toBeGreaterThan(0);
    expect(mine.rows.every((r: { userId: string }) => r.userId === admin!.id)).toBe(true);
  });

  it("answers 404 for a kind or a record it does not have, and keeps members out", async () => {
    expect((await call(recordsLoader, "/db/users", { entity: "users" })).status).toBe(404);
    expect((await call(recordsLoader, "/db/constructor", { entity: "constructor" })).status).toBe(404);
    expect(
      (await call(recordsLoader, "/db/members/not-a-uuid", { entity: "members", view: "not-a-uuid" })).status,
    ).toBe(404);
    expect((await call(recordsLoader, "/db/notices/12345678", { entity: "notices", view: "12345678" })).status).toBe(
      404,
    );
    expect((await call(exportLoader, "/db/nothing/export.csv", { entity: "nothing" })).status).toBe(404);
    expect((await call(recordsLoader, "/db/plans", { entity: "plans" }, "member")).status).toBe(403);
    expect((await call(exportLoader, "/db/plans/export.csv", { entity: "plans" }, "member")).status).toBe(403);
  });

  it("names who did each audited thing, whom they represented and from where, each opening the member's page", async () => {
    const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
    const [member] = await database.db.select().from(users).where(eq(users.username, "member"));
    await audit(
      database.db,
      { actorUserId: admin!.id, agentUserId: member!.id, ip: "198.51.100.77" },
      "browser.audit-names",
      "user",
      member!.id,
    );
    const list = await (
      await call(recordsLoader, "/db/audit_log?action=browser.audit-names", { entity: "audit_log" })
    ).json();
    const columns = list.columns.map((c: { key: string; label: string; member: string | null }) => [
      c.key,
      c.label,
      c.member,
    ]);
    expect(columns).toEqual(
      expect.arrayContaining([
        ["actor", "Who", "actorUserId"],
        ["agent", "Representing", "agentUserId"],
        ["ip", "Address", null],
      ]),
    );
    expect(columns.map((c: string[]) => c[0])).not.toContain("actorUserId");
    expect(list.rows).toHaveLength(1);
    expect(list.rows[0]).toMatchObject({
      actor: "admin",
      actorUserId: admin!.id,
      agent: "member",
      agentUserId: member!.id,
      ip: "198.51.100.77",
      // What it was about: the member by name, opening their page, not the table and the id.
      subject: "member",
      subjectMember: member!.id,
    });
    expect(columns).toEqual(expect.arrayContaining([["subject", "Concerning", "subjectMember"]]));
    expect(columns.map((c: string[]) => c[0])).not.toContain("entityId");
    // Filtered by the name shown, and whole in the record and the CSV.
    const byName = await (
      await call(recordsLoader, "/db/audit_log?actor=ADMI&action=browser.audit-names", { entity: "audit_log" })
    ).json();
    expect(byName.rows).toHaveLength(1);
    const nobody = await (
      await call(recordsLoader, "/db/audit_log?actor=nobody-here&action=browser.audit-names", { entity: "audit_log" })
    ).json();
    expect(nobody.rows).toHaveLength(0);
    const id = String(list.rows[0].id);
    const record = await (await call(recordsLoader, `/db/audit_log/${id}`, { entity: "audit_log", view: id })).json();
    expect(
      Object.fromEntries(record.fields.map((f: { key: string; value: string }) => [f.key, f.value])),
    ).toMatchObject({ actor: "admin", agent: "member", ip: "198.51.100.77", actorUserId: admin!.id });
    const csv = await (
      await call(exportLoader, "/db/audit_log/export.csv?action=browser.audit-names", { entity: "audit_log" })
    ).text();
    expect(csv.split("\r\n")[0]).toContain(",Who,Representing");
    expect(csv).toContain(",admin,member");
  });

  it("counts each kind's records on a new database, before any ANALYZE: never 'about 0' for a table with rows", async () => {
    const index = await (await call(recordsLoader, "/db", {})).json();
    const [users_] = (await database.executeSql("select count(*)::int as n from users")).rows as { n: number }[];
    expect(users_!.n).toBeGreaterThan(0);
    for (const t of index.tables as { name: string; count: { n: number; capped: boolean } }[]) {
      const list = await (await call(recordsLoader, `/db/${t.name}`, { entity: t.name })).json();
      expect(t.count, t.name).toEqual({ n: list.count.n, capped: false });
    }
    const members = index.tables.find((t: { name: string }) => t.name === "members");
    expect(members.count).toEqual({ n: users_!.n, capped: false });
  });

  it("counts a kind up to the cap, then says more than the cap; its estimate stands only far past the cap", async () => {
    const errors = async () =>
      (await (await call(recordsLoader, "/db", {})).json()).tables.find(
        (t: { name: string }) => t.name === "error_reports",
      ).count;
    await database.executeSql(
      `insert into error_reports (time, href, message) select now(), '/x', 'counted ' || i from generate_series(1, ${COUNT_CAP}) as i`,
    );
    const exact = await errors();
    expect(exact.capped).toBe(false);
    expect(exact.n).toBeGreaterThanOrEqual(COUNT_CAP);
    await database.executeSql(
      `insert into error_reports (time, href, message) select now(), '/x', 'more ' || i from generate_series(1, ${COUNT_CAP + 500}) as i`,
    );
    // Never analyzed: counted past the cap, with no estimate to stand in.
    const over = await errors();
    expect(over).toEqual({ n: COUNT_CAP + 1, capped: true });
    await database.executeSql("analyze error_reports");
    const [{ n }] = (await database.executeSql("select count(*)::int as n from error_reports")).rows as [{ n: number }];
    const estimated = await errors();
    expect(estimated.capped).toBe(true);
    expect(estimated.n).toBeGreaterThan(COUNT_CAP * 2);
    expect(Math.abs(estimated.n - n)).toBeLessThan(n * 0.1);
  });

  /** Cursors that fit no list, or fit another sort than the one they come with. */
  const misfits: [string, Cursor][] = [
    ["a null value with an id that is no uuid", { v: null, id: "x" }],
    ["a text id", { v: "2026-01-01 00:00:00+00", id: "x" }],
    ["text where a date, a number or a uuid is sorted", { v: "abc", id: 1 }],
    ["a date where text or a number is sorted", { v: "2026-01-01 00:00:00.123456+00", id: 1 }],
    ["a uuid value and id", { v: "0b6f4c2e-1d3a-4e5f-8a9b-0c1d2e3f4a5b", id: "0b6f4c2e-1d3a-4e5f-8a9b-0c1d2e3f4a5b" }],
    ["huge numbers", { v: 1e308, id: 1e308 }],
    ["a number too long for an id", { v: "99999999999999999999999", id: "99999999999999999999999" }],
    ["NaN-ish text", { v: "NaN", id: "NaN" }],
    ["a day that does not exist", { v: "2026-02-30", id: 1 }],
    ["a NUL in text", { v: "a\u0000b", id: "a\u0000b" }],
  ];

  it.each(Object.keys(ENTITIES))(
    "answers a cursor that does not fit /db/%s's sort or ids with a page: the first one when it says so",
    async (name) => {
      // One column of each type the list sorts by (text, uuid, numeric, timestamptz, date, boolean).
      const byType = new Map<string, string>();
      for (const column of ENTITIES[name]!.listing.columns.filter((c) => c.sortable)) {
        const type = column.type ?? column.kind;
        if (!byType.has(type)) byType.set(type, column.key);
      }
      for (const sort of byType.values()) {
        const first = await (await call(recordsLoader, `/db/${name}?sort=${sort}`, { entity: name })).json();
        for (const [what, cursor] of misfits) {
          const path = `/db/${name}?sort=${sort}&after=${encodeCursor(cursor)}`;
          const response = await call(recordsLoader, path, { entity: name });
          expect(response.status, `${path} (${what})`).toBe(200);
          const page = await response.json();
          if (page.errors.after) expect(page.rows, `${path} (${what})`).toEqual(first.rows);
        }
      }
    },
  );

  it.each(Object.keys(ENTITIES))("pages /db/%s by each of its columns with the cursors it makes", async (name) => {
    const entity = ENTITIES[name]!;
    for (const column of entity.listing.columns.filter((c) => c.sortable)) {
      for (const dir of ["asc", "desc"]) {
        const { query, errors } = entityQuery(entity, new URLSearchParams({ sort: column.key, dir }));
        expect(errors).toEqual({});
        const seen: string[] = [];
        let after: string | null = null;
        let pages = 0;
        do {
          const next = new URLSearchParams({ sort: column.key, dir, ...(after ? { after } : {}) });
          const read = entityQuery(entity, next);
          expect(read.errors, `${name} by ${column.key} ${dir}`).toEqual({});
          const page = await listPage(database.db, entity.listing, { ...query, after: read.query.after }, 2);
          seen.push(...page.rows.map((r) => r.id));
          after = page.next;
          pages += 1;
        } while (after && pages < 6);
        expect(new Set(seen).size, `${name} by ${column.key} ${dir}`).toBe(seen.length);
      }
    }
  });
});
