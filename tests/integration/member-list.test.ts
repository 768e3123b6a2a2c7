import type { AppLoadContext } from "@remix-run/node";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  causes,
  checkouts,
  countries,
  couponRedemptions,
  coupons,
  mailOutbox,
  nolEntries,
  plans,
  sessions,
  subscriptions,
  users,
} from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { decodeCursor, encodeCursor, LIST_PAGE_SIZE, type Cursor } from "~/domain/listing";
import { action as memberAction, loader as memberLoader } from "~/routes/members.$userId";
import { action as membersAction, loader as membersLoader } from "~/routes/members._index";
import { loader as exportLoader } from "~/routes/members_.export[.]csv";
import { listCount, listPage } from "~/services/listing.server";
import { memberListing, memberListQuery } from "~/services/member-listing.server";
import { sessionCode } from "~/services/profile.server";
import { siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession, createUser } from "../helpers/users";

const byLabel = (a: { label: string }, b: { label: string }) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);

type Route = (args: { request: Request; params: Record<string, string>; context: AppLoadContext }) => unknown;

/** The admins' members list at scale (/members): filters, keyset pages, bulk actions and the CSV export. */
describe.each(drivers)("the members list (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  const cookie: Record<string, string> = {};
  const made: Record<string, string> = {};
  let seenSession = "";
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    const { db } = database;
    await seedDemo(db, { demoPassword: "memberhall-demo" });
    context = testContext(database);
    for (const u of await db.select().from(users)) {
      const session = await createSession(db, u.id);
      cookie[u.username] = await siteCookies(context.app!.config).session.serialize(session.id);
    }
    // 120 members over 120 days, some of each kind the filters tell apart.
    const day = 86_400_000;
    const base = Date.UTC(2025, 0, 1);
    for (let i = 0; i < 120; i += 1) {
      const row = await createUser(db, {
        username: `lm${String(i).padStart(3, "0")}`,
        name: i % 10 === 0 ? null : `List Member ${i}`,
        countryCode: i % 3 === 0 ? "CA" : "US",
        nolTester: i % 7 === 0,
        createdAt: new Date(base + i * day),
      });
      made[row.username] = row.id;
    }
    // A few with memberships, a coupon, a NoL, a session.
    await db.insert(subscriptions).values(
      [5, 6, 7].map((i) => ({
        userId: made[`lm00${i}`]!,
        planId: "supporter",
        status: i === 7 ? ("PAST_DUE" as const) : ("ACTIVE" as const),
        provider: "sandbox" as const,
      })),
    );
    const [coupon] = await db.select().from(coupons).limit(1);
    const [checkout] = await db
      .insert(checkouts)
      .values({
        kind: "subscription",
        planId: "supporter",
        userId: made.lm010!,
        email: "lm010@example.org",
        listAmountCents: 500,
        amountCents: 400,
        status: "succeeded",
        provider: "sandbox",
      })
      .returning();
    await db.insert(couponRedemptions).values({
      couponId: coupon!.id,
      checkoutId: checkout!.id,
      userId: made.lm010!,
      email: "lm010@example.org",
      listAmountCents: 500,
      amountCents: 400,
      currency: "usd",
    });
    await db.insert(nolEntries).values({
      id: "187-9001",
      form: "NoLCreator2",
      formId: 187,
      entryNumber: 9001,
      userId: made.lm011!,
      causeCode: "TS",
      descriptiveVersion: "List test",
      editHash: `${"e".repeat(32)}*`,
      viewHash: `${"v".repeat(32)}*`,
    } as typeof nolEntries.$inferInsert);
    seenSession = (await createSession(db, made.lm012!)).id;
  });
  afterAll(async () => {
    await database?.dispose();
  });

  async function call(
    route: Route,
    path: string,
    options: { as?: string; form?: Record<string, string | string[]>; params?: Record<string, string> } = {},
  ) {
    const body = options.form ? new URLSearchParams() : undefined;
    for (const [key, value] of Object.entries(options.form ?? {})) {
      for (const v of Array.isArray(value) ? value : [value]) body!.append(key, v);
    }
    let response: Response;
    try {
      response = (await route({
        request: new Request(`http://localhost${path}`, {
          method: body ? "POST" : "GET",
          headers: {
            cookie: options.as ? cookie[options.as]! : "",
            ...(body ? { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" } : {}),
          },
          body,
        }),
        params: options.params ?? {},
        context,
      })) as Response;
    } catch (thrown) {
      if (!(thrown instanceof Response)) throw thrown;
      response = thrown;
    }
    return response;
  }

  const list = async (search: string) => {
    const response = await call(membersLoader, `/members?${search}`, { as: "admin" });
    expect(response.status).toBe(200);
    return (await response.json()).list as {
      rows: Record<string, unknown>[];
      next: string | null;
      previous: string | null;
      count: { n: number; capped: boolean };
      errors: Record<string, string>;
    };
  };
  const names = (rows: Record<string, unknown>[]) => rows.map((r) => String(r.username));
  const listed = (rows: Record<string, unknown>[]) => names(rows).filter((n) => n.startsWith("lm"));

  it("filters by search, role, membership, plan, coupon, country, cause, joined and last seen", async () => {
    expect(names((await list("q=lm11")).rows).sort()).toEqual([
      "lm110",
      "lm111",
      "lm112",
      "lm113",
      "lm114",
      "lm115",
      "lm116",
      "lm117",
      "lm118",
      "lm119",
    ]);
    // The search reads the name and the e-mail too, whatever their case.
    expect(names((await list("q=LIST+MEMBER+119")).rows)).toEqual(["lm119"]);
    expect(names((await list("q=lm042%40example")).rows)).toEqual(["lm042"]);
    const testers = listed((await list("role=nolTester")).rows);
    expect(testers.sort()).toEqual(
      Object.keys(made)
        .filter((_, i) => i % 7 === 0)
        .sort(),
    );
    expect(listed((await list("status=ACTIVE")).rows).sort()).toEqual(["lm005", "lm006"]);
    expect(listed((await list("status=PAST_DUE")).rows)).toEqual(["lm007"]);
    expect(listed((await list("plan=supporter&status=PAST_DUE")).rows)).toEqual(["lm007"]);
    const [coupon] = await database.db.select().from(coupons).limit(1);
    expect(names((await list(`coupon=${coupon!.id}`)).rows)).toEqual(["lm010"]);
    expect(names((await list("cause=ts")).rows)).toContain("lm011");
    expect(names((await list("cause=ts")).rows)).not.toContain("lm012");
    const canadians = await list("country=CA&q=lm");
    expect(canadians.count).toEqual({ n: 40, capped: false });
    expect(names((await list("joined_from=2025-01-03&joined_to=2025-01-05")).rows).sort()).toEqual([
      "lm002",
      "lm003",
      "lm004",
    ]);
    expect(listed((await list(`seen_from=${today}&seen_to=${today}`)).rows)).toEqual(["lm012"]);
    expect(listed((await list("seen_to=2025-01-01")).rows)).toEqual([]);
  });

  it("offers every membership plan, coupon, country and cause as a filter's choice, each list in the order of its names", async () => {
    const response = await call(membersLoader, "/members", { as: "admin" });
    const { choices } = (
      (await response.json()) as { list: { choices: Record<string, { value: string; label: string }[]> } }
    ).list;
    const { db } = database;
    const expected = {
      // A donation or a credit is a payment, not a plan a member is on.
      plans: (
        await db.select({ value: plans.id, label: plans.title }).from(plans).where(eq(plans.kind, "subscription"))
      ).sort(byLabel),
      coupons: (await db.select({ value: coupons.id, label: coupons.name }).from(coupons)).sort(byLabel),
      countries: (await db.select({ value: countries.code, label: countries.name }).from(countries)).sort(byLabel),
      causes: (await db.select({ value: causes.code, label: causes.name }).from(causes)).sort(byLabel),
    };
    for (const kind of ["plans", "coupons", "countries", "causes"] as const)
      expect(expected[kind].length).toBeGreaterThan(1);
    expect(choices).toEqual(expected);
  });

  it("leaves out a filter it cannot read and says why, instead of failing", async () => {
    const page = await list("status=LOST&joined_from=2025-13-01&sort=password_hash");
    expect(page.errors).toEqual({
      status: 'Membership: "LOST" is not one of the choices',
      joined_from: "Joined: enter a date as YYYY-MM-DD",
      sort: 'A list cannot be sorted by "password_hash"',
    });
    expect(page.rows.length).toBe(LIST_PAGE_SIZE);
  });

  it("sorts by each shown column both ways, as the values sort", async () => {
    for (const sort of ["username", "email", "country", "joined"]) {
      for (const dir of ["asc", "desc"] as const) {
        const rows = (await list(`q=lm&sort=${sort}&dir=${dir}`)).rows;
        const keyOf = (r: Record<string, unknown>) => `${String(r[sort] ?? "").toLowerCase()}\u0000${String(r.id)}`;
        const sorted = [...rows].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
        if (dir === "desc") sorted.reverse();
        // Within equal values the order is by id, which the database compares as a uuid.
        expect(rows.map((r) => r[sort])).toEqual(sorted.map((r) => r[sort]));
      }
    }
  });

  it("pages forward and back by keyset, stable while members join", async () => {
    const seen: string[] = [];
    let page = await list("q=lm&sort=joined&dir=desc");
    const firstPage = names(page.rows);
    seen.push(...firstPage);
    // New members join between the reads: they come before the first page and never shift the rest.
    await createUser(database.db, { username: "lmnew1", createdAt: new Date() });
    while (page.next) {
      page = await list(`q=lm&sort=joined&dir=desc&after=${page.next}`);
      seen.push(...names(page.rows));
      await createUser(database.db, { username: `lmnew${seen.length}`, createdAt: new Date() });
    }
    expect(seen).toHaveLength(120);
    expect(new Set(seen).size).toBe(120);
    expect(seen[0]).toBe("lm119");
    expect(seen.at(-1)).toBe("lm000");
    // Back from the second page is the first page again, the same rows in the same order.
    const first = await list("q=lm&sort=joined&dir=desc");
    expect(first.previous).toBeNull();
    const second = await list(`q=lm&sort=joined&dir=desc&after=${first.next}`);
    expect(second.previous).not.toBeNull();
    const back = await list(`q=lm&sort=joined&dir=desc&before=${second.previous}`);
    expect(names(back.rows)).toEqual(names(first.rows));
    expect(back.next).toBe(first.next);
    expect(firstPage[0]).toBe("lm119");
    // A page cursor is not a page number: a made-up one is ignored.
    expect((await list("after=not-a-cursor")).rows.length).toBe(LIST_PAGE_SIZE);
  });

  it("answers a cursor that does not fit the sort's column or the members' ids with the first page, and says so", async () => {
    const [member] = await database.db.select({ id: users.id }).from(users).limit(1);
    const byJoined = await list("q=lm&sort=joined&dir=desc");
    const joinedCursor = decodeCursor(byJoined.next)!;
    const misfits: [string, Cursor][] = [
      ["a null value with an id that is no uuid", { v: null, id: "x" }],
      ["a text id", { v: "2025-01-01 00:00:00+00", id: "x" }],
      ["a numeric id", { v: "lm050", id: 7 }],
      ["text where a date is sorted", { v: "lm050", id: member!.id }],
      ["huge numbers", { v: 1e308, id: 1e308 }],
      ["a number too long for any id", { v: "99999999999999999999999", id: "99999999999999999999999" }],
      ["NaN-ish text", { v: "NaN", id: "NaN" }],
      ["a day that does not exist", { v: "2025-02-30 00:00:00+00", id: member!.id }],
      ["a NUL in text", { v: "lm\u0000", id: member!.id }],
      ["the date cursor of another sort", joinedCursor],
    ];
    const refusal = "The page asked for is not a page of this list in this order: the list starts from its first page";
    for (const sort of ["username", "name", "status", "joined", "seen"]) {
      const first = await list(`q=lm&sort=${sort}`);
      for (const [what, cursor] of misfits) {
        for (const position of ["after", "before"] as const) {
          const page = await list(`q=lm&sort=${sort}&${position}=${encodeCursor(cursor)}`);
          const label = `sort=${sort}, ${position}: ${what}`;
          if (page.errors[position]) {
            expect(page.errors[position], label).toBe(refusal);
            expect(names(page.rows), label).toEqual(names(first.rows));
          }
        }
      }
    }
    // Whether a cursor fits depends on the sort: a date is some text, but text is no date, and an
    // id that is no uuid names no member under any sort.
    const numericId = await list(`q=lm&sort=username&after=${encodeCursor({ v: "lm050", id: 7 })}`);
    expect(numericId.errors).toEqual({ after: refusal });
    const dateAsText = await list(`q=lm&sort=username&after=${encodeCursor(joinedCursor)}`);
    expect(dateAsText.errors).toEqual({});
    expect((await list(`q=lm&sort=joined&after=${encodeCursor({ v: "lm050", id: member!.id })}`)).errors).toEqual({
      after: refusal,
    });
  });

  it("pages by a column with equal and missing values without losing or repeating a member", async () => {
    const { query } = memberListQuery(new URLSearchParams("q=lm0&sort=name&dir=asc"));
    const all: string[] = [];
    let after: string | null = null;
    do {
      const page = await listPage(database.db, memberListing, { ...query, after: decodeCursor(after) }, 7);
      all.push(...page.rows.map((r) => String(r.username)));
      after = page.next;
    } while (after);
    expect(all.length).toBe(100);
    expect(new Set(all).size).toBe(100);
    // Members without a name sort first.
    expect(all.slice(0, 10).sort()).toEqual([
      "lm000",
      "lm010",
      "lm020",
      "lm030",
      "lm040",
      "lm050",
      "lm060",
      "lm070",
      "lm080",
      "lm090",
    ]);
  });

  it("pages a narrow search the same whether it sorts the rows found or walks the sort's index", async () => {
    for (const sort of ["joined", "username", "seen"]) {
      const { query } = memberListQuery(new URLSearchParams(`q=lm0&sort=${sort}&dir=desc`));
      const read = async (narrowed: boolean) => {
        const all: string[] = [];
        let after: string | null = null;
        do {
          const page = await listPage(
            database.db,
            memberListing,
            { ...query, after: decodeCursor(after) },
            13,
            narrowed,
          );
          all.push(...page.rows.map((r) => String(r.username)));
          after = page.next;
        } while (after);
        return all;
      };
      const walked = await read(false);
      expect(walked).toHaveLength(100);
      expect(await read(true)).toEqual(walked);
    }
  });

  it("counts a filter's members up to its cap, and past it says only that there are more", async () => {
    expect((await list("q=lm0")).count).toEqual({ n: 100, capped: false });
    const { query } = memberListQuery(new URLSearchParams("q=lm0"));
    expect(await listCount(database.db, memberListing, query.filters, 100)).toEqual({ n: 100, capped: false });
    // The planner's guess at a search's rows is no count: past the cap, "more than 20".
    expect(await listCount(database.db, memberListing, query.filters, 20)).toEqual({ n: 21, capped: true });
  });

  it("exports the filtered list as CSV, streamed, with formula-starting text made harmless", async () => {
    await createUser(database.db, { username: "lmformula", name: '=HYPERLINK("http://x.example","click")' });
    await createUser(database.db, { username: "lmplus", name: '+1 555, "quoted"' });
    const response = await call(exportLoader, "/members/export.csv?q=lmformula", { as: "admin" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="members-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = await response.text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "id,Username,E-mail,Name,Country,Membership,Plan,Admin,NoL creator,NoL tester,Setup finished,Joined,Last seen",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,"'=HYPERLINK(""http://x.example"",""click"")",`);
    const plus = await (await call(exportLoader, "/members/export.csv?q=lmplus", { as: "admin" })).text();
    expect(plus).toContain(`,"'+1 555, ""quoted""",`);
    // The whole filter result, past the page size, in the list's order.
    const all = (
      await (await call(exportLoader, "/members/export.csv?q=lm0&sort=username&dir=asc", { as: "admin" })).text()
    )
      .trimEnd()
      .split("\r\n");
    expect(all).toHaveLength(101);
    expect(all[1]).toContain(",lm000,");
    expect(all[100]).toContain(",lm099,");
    const [audit] = await database.db.select().from(auditLog).where(eq(auditLog.action, "members.export"));
    expect(audit).toBeDefined();
  });

  it("exports the members ticked, as a download of the list's CSV", async () => {
    const response = await call(membersAction, "/members?country=US", {
      as: "admin",
      form: { action: "export", scope: "selected", ids: [made.lm050!, made.lm052!, made.lm051!] },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("x-remix-reload-document")).toBe("true");
    const location = response.headers.get("location")!;
    expect(location).toMatch(/^\/members\/export\.csv\?country=US&sort=joined&dir=desc&ids=/);
    const csv = await (await call(exportLoader, location, { as: "admin" })).text();
    const lines = csv.trimEnd().split("\r\n").slice(1);
    // lm051 is in Canada: the filter still holds.
    expect(lines.map((l) => l.split(",")[1]).sort()).toEqual(["lm050", "lm052"]);
    // Ids that are not ids leave the filter out and say so, rather than exporting everyone unasked.
    const { errors } = memberListQuery(new URLSearchParams("ids=nope"));
    expect(errors).toEqual({ ids: "Members ticked: at most 500 members, each by its id" });
  });

  it("keeps visitors and members out of the list, the export and the bulk actions", async () => {
    for (const route of [membersLoader, exportLoader]) {
      const visitor = await call(route, "/members/export.csv");
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toMatch(/^\/login/);
      expect((await call(route, "/members", { as: "member" })).status).toBe(403);
      expect((await call(route, "/members", { as: "creator" })).status).toBe(403);
    }
    const before = await database.db
      .select({ n: sql<number>`count(*)` })
      .from(users)
      .where(eq(users.nolCreator, true));
    const refused = await call(membersAction, "/members", {
      as: "member",
      form: { action: "set-nolCreator", scope: "all" },
    });
    expect(refused.status).toBe(403);
    const after = await database.db
      .select({ n: sql<number>`count(*)` })
      .from(users)
      .where(eq(users.nolCreator, true));
    expect(after).toEqual(before);
  });

  it("sets and clears a flag on the members ticked, or on every member of the filter, audited once", async () => {
    const ticked = await call(membersAction, "/members?q=lm", {
      as: "admin",
      form: { action: "set-nolCreator", scope: "selected", ids: [made.lm020!, made.lm021!] },
    });
    expect(ticked.status).toBe(302);
    const creators = await database.db
      .select({ username: users.username })
      .from(users)
      .where(eq(users.nolCreator, true));
    expect(names(creators)).toEqual(expect.arrayContaining(["lm020", "lm021"]));
    expect(names(creators)).not.toContain("lm022");

    const all = await call(membersAction, "/members?country=CA&q=lm", {
      as: "admin",
      form: { action: "set-nolTester", scope: "all" },
    });
    expect(all.status).toBe(302);
    const testers = await database.db
      .select({ username: users.username, country: users.countryCode })
      .from(users)
      .where(sql`${users.nolTester} and ${users.username} like 'lm%'`);
    expect(testers.filter((t) => t.country === "CA")).toHaveLength(40);
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, "members.bulk.set-nolTester"));
    expect(entry!.data).toMatchObject({ selection: { filters: { country: "CA", q: "lm" } } });
    // Whom it changed, by name: the first ten, in order.
    const { reached, members } = entry!.data as { reached: number; members: string[] };
    expect(reached).toBeGreaterThan(10);
    expect(members).toEqual([...members].sort());
    expect(members).toHaveLength(10);
    const [ticking] = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "members.bulk.set-nolCreator"));
    expect(ticking!.data).toMatchObject({ reached: 2, members: ["lm020", "lm021"] });
  });

  it("e-mails the members ticked through the mail provider, and queues a whole filter's e-mail", async () => {
    const response = await call(membersAction, "/members", {
      as: "admin",
      form: {
        action: "email",
        scope: "selected",
        ids: [made.lm030!, made.lm031!],
        subject: "Meeting",
        body: "See you Tuesday.",
      },
    });
    expect(response.status).toBe(302);
    const mails = await database.db.select().from(mailOutbox).where(eq(mailOutbox.subject, "Meeting"));
    expect(mails.map((m) => m.to).sort()).toEqual(["lm030@example.org", "lm031@example.org"]);
    const queued = await call(membersAction, "/members?status=ACTIVE", {
      as: "admin",
      form: { action: "email", scope: "all", subject: "To all", body: "Hello all." },
    });
    expect(queued.status).toBe(302);
    const { rows } = await database.executeSql("select data from pgboss.job where name = 'members-mail'");
    expect(rows.at(-1)?.data).toMatchObject({ filters: { status: "ACTIVE" }, subject: "To all" });
  });

  it("refuses a bulk action it cannot read with field errors, and changes nothing", async () => {
    const outbox = (await database.db.select().from(mailOutbox)).length;
    const forms: Record<string, string | string[]>[] = [
      { action: "delete-everyone", scope: "all" },
      { action: "set-nolCreator", scope: "selected" },
      { action: "set-nolCreator", scope: "selected", ids: ["not-a-uuid"] },
      { action: "email", scope: "selected", ids: [made.lm040!] },
    ];
    for (const form of forms) {
      const response = await call(membersAction, "/members", { as: "admin", form });
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(Object.keys(body.result.error).length).toBeGreaterThan(0);
    }
    expect((await database.db.select().from(mailOutbox)).length).toBe(outbox);
    const [member] = await database.db
      .select()
      .from(users)
      .where(inArray(users.id, [made.lm040!]));
    expect(member!.nolCreator).toBe(false);
  });

  it("shows an admin everything about one member, and audits the read with who and from where", async () => {
    const id = made.lm010!;
    const response = await call(memberLoader, `/members/${id}`, { as: "admin", params: { userId: id } });
    expect(response.status).toBe(200);
    const { page } = await response.json();
    expect(page.detail).toMatchObject({ username: "lm010" });
    expect(page.coupons).toHaveLength(1);
    expect(page.coupons[0]).toMatchObject({ amountCents: 400, listAmountCents: 500 });
    expect(page.flags).toEqual({ nolCreator: false, nolTester: false, admin: false });
    const [read] = await database.db
      .select()
      .from(auditLog)
      .where(sql`${auditLog.action} = 'members.view' and ${auditLog.entityId} = ${id}`);
    expect(read).toMatchObject({ entity: "user", ip: "203.0.113.7" });
    // Members never reach it.
    expect((await call(memberLoader, `/members/${id}`, { as: "member", params: { userId: id } })).status).toBe(403);
  });

  it("logs out one session of a member, sets the flags, and shows both in the member's audit trail", async () => {
    const id = made.lm012!;
    const one = await createSession(database.db, id);
    const other = await createSession(database.db, id);
    const page = async () =>
      (await (await call(memberLoader, `/members/${id}`, { as: "admin", params: { userId: id } })).json()).page;
    const before = await page();
    const code = (before.sessions as { code: string; lastSeenAt: string }[]).find(
      (s) => s.code === sessionCode(one.id),
    )!.code;
    const ended = await call(memberAction, `/members/${id}`, {
      as: "admin",
      params: { userId: id },
      form: { intent: "end-session", session: code },
    });
    expect(ended.status).toBe(302);
    const [row] = await database.db.select().from(sessions).where(eq(sessions.id, one.id));
    expect(row!.revokedAt).not.toBeNull();
    const [kept] = await database.db.select().from(sessions).where(eq(sessions.id, other.id));
    expect(kept!.revokedAt).toBeNull();
    await call(memberAction, `/members/${id}`, {
      as: "admin",
      params: { userId: id },
      form: { intent: "flags", nolCreator: "on" },
    });
    const [flags] = await database.db.select().from(users).where(eq(users.id, id));
    expect(flags).toMatchObject({ nolCreator: true, nolTester: false });
    const after = await page();
    const actions = (after.audit as { action: string; by: { id: string; username: string } | null }[]).map(
      (a) => `${a.by?.username} ${a.action}`,
    );
    expect(actions).toEqual(
      expect.arrayContaining(["admin sessions.revoke-one", "admin members.flags", "admin members.view"]),
    );
    // A session code that is not one of the member's changes nothing.
    const wrong = await call(memberAction, `/members/${id}`, {
      as: "admin",
      params: { userId: id },
      form: { intent: "end-session", session: "0".repeat(16) },
    });
    expect(wrong.status).toBe(404);
    const bad = await call(memberAction, `/members/${id}`, {
      as: "admin",
      params: { userId: id },
      form: { intent: "end-session", session: "<script>" },
    });
    expect(bad.status).toBe(400);
  });

  it("keeps the audit log append-only", async () => {
    await expect(database.db.update(auditLog).set({ action: "nothing" })).rejects.toThrow();
    await expect(database.db.delete(auditLog)).rejects.toThrow();
    // Deleting a member clears their id from the entries and keeps the entries.
    const gone = await createUser(database.db, { username: "lmgone" });
    await database.db
      .insert(auditLog)
      .values({ actorUserId: gone.id, agentUserId: null, action: "test.gone", entity: "user" });
    await database.db.delete(users).where(eq(users.id, gone.id));
    const [kept] = await database.db.select().from(auditLog).where(eq(auditLog.action, "test.gone"));
    expect(kept).toMatchObject({ actorUserId: null });
  });

  it("keeps each member's membership and last visit on the member, from the subscriptions and sessions", async () => {
    const [row] = await database.db.select().from(users).where(eq(users.id, made.lm007!));
    expect(row).toMatchObject({ subscriptionStatus: "PAST_DUE", subscriptionPlanId: "supporter" });
    await database.db.update(subscriptions).set({ status: "CANCELED" }).where(eq(subscriptions.userId, made.lm007!));
    const [changed] = await database.db.select().from(users).where(eq(users.id, made.lm007!));
    expect(changed!.subscriptionStatus).toBe("CANCELED");
    const later = new Date(Date.now() + 3_600_000);
    await database.db.update(sessions).set({ lastSeenAt: later }).where(eq(sessions.id, seenSession));
    const [seen] = await database.db.select().from(users).where(eq(users.id, made.lm012!));
    expect(seen!.lastSeenAt?.toISOString()).toBe(later.toISOString());
    // An older use of another session leaves the newest visit standing.
    const older = await createSession(database.db, made.lm012!);
    await database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.UTC(2025, 0, 1)) })
      .where(eq(sessions.id, older.id));
    const [still] = await database.db.select().from(users).where(eq(users.id, made.lm012!));
    expect(still!.lastSeenAt?.toISOString()).toBe(later.toISOString());
  });
});
