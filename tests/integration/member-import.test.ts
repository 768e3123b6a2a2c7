import type { AppLoadContext } from "@remix-run/node";
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import {
  auditLog,
  mailOutbox,
  memberImportRows,
  memberImports,
  newsletterSubscriptions,
  subscriptions,
  users,
} from "~/db/schema";
import { seedDemo } from "~/db/seed.server";
import { IMPORT_TOO_LARGE } from "~/domain/member-import";
import { action as uploadAction, loader as importsLoader } from "~/routes/members.import._index";
import { action as importAction } from "~/routes/members.import.$importId";
import { loader as reportLoader } from "~/routes/members.import.$importId.report[.]csv";
import { action as welcomeAction } from "~/routes/login.$action";
import { logIn } from "~/services/auth.server";
import { COUNT_CAP, matchLine, type ListCount } from "~/domain/list-count";
import { loader as membersLoader } from "~/routes/members._index";
import { IMPORT_BATCH, importChunk } from "~/services/member-import/run.server";
import { sendInvitations } from "~/services/member-import/invite.server";
import { siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { answer } from "../helpers/requests";
import { createSession, createUser } from "../helpers/users";

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

describe.each(drivers)("members import from CSV (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let services: AppServices;
  let adminCookie: string;
  let memberCookie: string;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    context = testContext(database);
    services = context.app!;
    const cookieOf = async (username: string) => {
      const [user] = await database.db.select().from(users).where(eq(users.username, username));
      return siteCookies(services.config).session.serialize((await createSession(database.db, user!.id)).id);
    };
    adminCookie = await cookieOf("admin");
    memberCookie = await cookieOf("member");
  });
  afterAll(async () => {
    await database?.dispose();
  });

  /** The upload form as a browser sends it. */
  function uploadRequest(file: Blob | string, cookie = adminCookie, fileName = "members.csv", invite = true) {
    const form = new FormData();
    form.set("file", typeof file === "string" ? new Blob([file], { type: "text/csv" }) : file, fileName);
    if (invite) form.set("invite", "on");
    return new Request("http://localhost/members/import", { method: "POST", body: form, headers: { cookie } });
  }

  /** Uploads a file: the new import's id, or the refusal's status and message. */
  async function upload(file: Blob | string, cookie = adminCookie) {
    const response = await answer(uploadAction({ request: uploadRequest(file, cookie), params: {}, context }));
    if (response.status === 302) return { importId: response.headers.get("location")!.split("/").at(-1)! };
    return { status: response.status, error: ((await response.json()) as { error?: string }).error };
  }

  async function post(importId: string, intent: string, cookie = adminCookie) {
    return answer(
      importAction({
        request: new Request(`http://localhost/members/import/${importId}`, {
          method: "POST",
          body: new URLSearchParams({ intent }),
          headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        }),
        params: { importId },
        context,
      }),
    );
  }

  async function report(importId: string) {
    const response = await answer(
      reportLoader({
        request: new Request(`http://localhost/members/import/${importId}/report.csv`, {
          headers: { cookie: adminCookie },
        }),
        params: { importId },
        context,
      }),
    );
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    return response.text();
  }

  const counted = async () => ({
    users: (await database.db.select({ n: count() }).from(users))[0]!.n,
    imports: (await database.db.select({ n: count() }).from(memberImports))[0]!.n,
    mail: (await database.db.select({ n: count() }).from(mailOutbox))[0]!.n,
  });

  const rowsOf = (importId: string) =>
    database.db
      .select()
      .from(memberImportRows)
      .where(eq(memberImportRows.importId, importId))
      .orderBy(asc(memberImportRows.line));

  it("checks a file first (nothing written, nobody e-mailed), then imports it with the dry run's own report", async () => {
    const existing = await createUser(database.db, { email: "known@example.org", name: "Old Name", labels: ["Old"] });
    await createUser(database.db, { username: "taken-name", email: "other@example.org" });
    const file = [
      "Email,Username,Name,Country,Created,Labels,Complimentary plan,Complimentary until,Newsletter",
      `new1@example.org,,New One,GB,2021-03-04,"Volunteers, 2021",monthly,${day(30)},yes`,
      "known@example.org,,New Name,AU,,Board,,,",
      "NEW1@example.org,,Twice,,,,,,",
      "not-an-address,,Bad,,,,,,",
      "clash@example.org,taken-name,Clash,,,,,,",
      'formula@example.org,,"=HYPERLINK(""http://x.example"")",,,,,,',
      `${existing.username}@example.org,,Fresh,,,,,,no`,
    ].join("\r\n");
    const before = await counted();
    const { importId } = await upload(file);
    expect(importId).toMatch(/^[0-9a-f-]{36}$/);
    const after = await counted();
    expect(after).toEqual({ users: before.users, imports: before.imports + 1, mail: before.mail });

    const planned = await rowsOf(importId!);
    expect(planned.map((r) => [r.line, r.action, r.reason])).toEqual([
      [2, "create", `Complimentary monthly membership until ${day(30)}`],
      [3, "update", "Already a member: name, country, labels"],
      [4, "skip", "The e-mail address is on row 2 already"],
      [5, "skip", "Not a valid e-mail address: not-an-address"],
      [6, "skip", "The username taken-name belongs to another member"],
      [7, "create", "The name starts like a formula: kept as text"],
      [8, "create", ""],
    ]);
    const [checked] = await database.db.select().from(memberImports).where(eq(memberImports.id, importId!));
    expect(checked).toMatchObject({ status: "checked", total: 7, toCreate: 3, toUpdate: 1, toSkip: 3, processed: 0 });

    // The import, started by the admin, runs as a job; one batch per run here, as a restart would cut it.
    expect((await post(importId!, "start")).status).toBe(302);
    await importChunk(services, importId!, 0);
    const [done] = await database.db.select().from(memberImports).where(eq(memberImports.id, importId!));
    expect(done).toMatchObject({ status: "done", processed: 7, created: 3, updated: 1, skipped: 3 });
    const imported = await rowsOf(importId!);
    // The dry run's report is the import's: each row did what the dry run said, for the same reason.
    expect(imported.map((r) => [r.line, r.outcome, r.outcomeReason])).toEqual(
      planned.map((r) => [r.line, r.action, r.reason]),
    );

    const [made] = await database.db.select().from(users).where(eq(users.email, "new1@example.org"));
    expect(made).toMatchObject({
      username: "new1",
      name: "New One",
      countryCode: "GB",
      labels: ["Volunteers", "2021"],
    });
    expect(made!.passwordHash).toBeNull();
    expect(made!.createdAt.toISOString().slice(0, 10)).toBe("2021-03-04");
    const [grant] = await database.db.select().from(subscriptions).where(eq(subscriptions.userId, made!.id));
    expect(grant).toMatchObject({ provider: "complimentary", planId: "monthly", status: "ACTIVE" });
    expect(grant!.currentPeriodEnd!.toISOString().slice(0, 10)).toBe(day(30));
    const [news] = await database.db
      .select()
      .from(newsletterSubscriptions)
      .where(sql`lower(${newsletterSubscriptions.email}) = 'new1@example.org'`);
    expect(news?.status).toBe("confirmed");
    const [updated] = await database.db.select().from(users).where(eq(users.id, existing.id));
    expect(updated).toMatchObject({ name: "New Name", countryCode: "AU", labels: ["Board", "Old"] });
    const [inert] = await database.db.select().from(users).where(eq(users.email, "formula@example.org"));
    expect(inert!.name).toBe('=HYPERLINK("http://x.example")');

    // The report: every row, the dry run beside the import; a formula cell opens as text.
    const csv = await report(importId!);
    expect(csv.split("\r\n")[0]).toBe("row,email,username,dry run,dry run details,import,import details");
    expect(csv).toContain(
      "4,new1@example.org,,skip,The e-mail address is on row 2 already,skip,The e-mail address is on row 2 already",
    );
    expect(csv.split("\r\n").filter(Boolean)).toHaveLength(8);
    const [audited] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "members.import.done"), eq(auditLog.entityId, importId!)));
    expect(audited?.data).toEqual({ created: 3, updated: 1, skipped: 3 });

    // The invitations go out a batch at a time; the link lets the member choose a password and log in.
    expect(await sendInvitations(services, importId!, 2)).toBe(1);
    expect(await sendInvitations(services, importId!, 2)).toBe(0);
    const invitations = await database.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.to, ["new1@example.org", "formula@example.org", `${existing.username}@example.org`]));
    expect(invitations).toHaveLength(3);
    const link = /\/login\/welcome\?token=([\w-]+)/.exec(invitations.find((m) => m.to === "new1@example.org")!.text)!;
    const welcome = await answer(
      welcomeAction({
        request: new Request(`http://localhost/login/welcome`, {
          method: "POST",
          body: new URLSearchParams({
            token: link[1]!,
            password: "violet tractor anthem 42",
            confirm: "violet tractor anthem 42",
          }),
          headers: { "content-type": "application/x-www-form-urlencoded" },
        }),
        params: { action: "welcome" },
        context,
      }),
    );
    expect(welcome.status).toBe(302);
    const session = await logIn(services, { login: "new1", password: "violet tractor anthem 42" }, {
      ip: "203.0.113.9",
      userAgent: "test",
      devicePublicKey: null,
    } as never);
    expect(session).toEqual({ kind: "session", sessionId: expect.any(String) });
    const [verified] = await database.db.select().from(users).where(eq(users.id, made!.id));
    expect(verified!.emailVerifiedAt).not.toBeNull();
  });

  it("imports a Ghost export with internationalised addresses, and a second import of it changes nothing", async () => {
    const file = [
      "id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers",
      `6601,ömil@gmail.com,Ömil Ünal,,true,false,,2023-05-01T10:00:00.000Z,,"Readers, Spring",`,
      `6602,maïbes@gmail.com,Maï Bès,,false,true,,2023-06-02T11:00:00.000Z,,Readers,Supporter`,
      `6603,Plain.Ghost@Example.org,Plain Ghost,,true,true,,2024-01-03T09:30:00.000Z,,,`,
    ].join("\n");
    const first = await upload(file);
    expect(first.importId).toBeDefined();
    expect((await rowsOf(first.importId!)).map((r) => [r.line, r.action, r.email])).toEqual([
      [2, "create", "ömil@gmail.com"],
      [3, "create", "maïbes@gmail.com"],
      [4, "create", "plain.ghost@example.org"],
    ]);
    expect((await post(first.importId!, "start")).status).toBe(302);
    for (let run = 0; run < 3; run += 1) await importChunk(services, first.importId!, 0);
    const [imported] = await database.db.select().from(memberImports).where(eq(memberImports.id, first.importId!));
    expect(imported).toMatchObject({ status: "done", created: 3, updated: 0, skipped: 0 });

    const again = await upload(file);
    const [checked] = await database.db.select().from(memberImports).where(eq(memberImports.id, again.importId!));
    expect(
      (await rowsOf(again.importId!)).map((r) => [r.line, r.action, r.reason]),
      "a second import of the same file",
    ).toEqual([
      [2, "skip", "Already a member, nothing to change"],
      [3, "skip", "Already a member, nothing to change"],
      [4, "skip", "Already a member, nothing to change"],
    ]);
    expect(checked).toMatchObject({ toCreate: 0, toUpdate: 0, toSkip: 3 });
  });

  it("imports Mailchimp's audience export: the country, the day they joined, and the tags as labels without quotes", async () => {
    const earlier = await createUser(database.db, {
      email: "known.chimp@example.org",
      labels: ['"Volunteers"'],
      countryCode: "US",
    });
    const file = [
      "Email Address,First Name,Last Name,MEMBER_RATING,OPTIN_TIME,OPTIN_IP,CONFIRM_TIME,CONFIRM_IP,LATITUDE,LONGITUDE,GMTOFF,DSTOFF,TIMEZONE,CC,REGION,LAST_CHANGED,LEID,EUID,NOTES,TAGS",
      `jöns.jakob@example.se,Jöns,Jakob,2,2019-03-14 17:22:05,203.0.113.4,2019-03-14 17:25:00,203.0.113.4,,,,,,GB,,2024-01-02 10:00:00,11,aa11,,"""Volunteers"",""Board, 2021"""`,
      `known.chimp@example.org,Known,Chimp,3,2018-01-05 08:00:00,,,,,,,,,AU,,,12,bb22,,"""Volunteers"",""Donors"""`,
    ].join("\r\n");
    const { importId } = await upload(file);
    const [checked] = await database.db.select().from(memberImports).where(eq(memberImports.id, importId!));
    const readAs = Object.fromEntries(
      (checked!.columns as { header: string; field: string | null }[]).map((c) => [c.header, c.field]),
    );
    expect(readAs).toMatchObject({ CC: "country", OPTIN_TIME: "createdAt", TAGS: "labels", CONFIRM_TIME: null });
    const usernameOf = (member: unknown) => (member as { username: string | null } | null)?.username;
    expect((await rowsOf(importId!)).map((r) => [r.line, r.action, usernameOf(r.member), r.reason])).toEqual([
      [2, "create", "jons-jakob", ""],
      [3, "update", "", "Already a member: name, country, labels"],
    ]);
    expect((await post(importId!, "start")).status).toBe(302);
    await importChunk(services, importId!, 0);

    const [made] = await database.db.select().from(users).where(eq(users.email, "jöns.jakob@example.se"));
    expect(made).toMatchObject({
      username: "jons-jakob",
      name: "Jöns Jakob",
      countryCode: "GB",
      labels: ["Volunteers", "Board, 2021"],
    });
    expect(made!.createdAt.toISOString()).toBe("2019-03-14T17:22:05.000Z");
    // A label an earlier import kept with its quotes is the same label: one of it, without them.
    const [known] = await database.db.select().from(users).where(eq(users.id, earlier.id));
    expect(known).toMatchObject({ countryCode: "AU", labels: ["Donors", "Volunteers"] });
  });

  it("gives no complimentary membership to a member who pays for one, and reads their newsletter answer as theirs", async () => {
    const [paying] = await database.db.select().from(users).where(eq(users.username, "member"));
    const file = ["email,complimentary_plan,subscribed_to_emails", `${paying!.email},true,true`].join("\n");
    const { importId } = await upload(file);
    const [row] = await rowsOf(importId!);
    expect(row).toMatchObject({
      action: "update",
      reason: "Already a member: newsletter. Pays for a membership: no complimentary one",
    });
  });

  it("goes on from the next row when the import is cut short, without doing a row twice", async () => {
    const lines = ["email,name", ...Array.from({ length: 2_500 }, (_, i) => `bulk${i}@example.org,Bulk ${i}`)];
    const { importId } = await upload(lines.join("\n"));
    expect((await post(importId!, "start")).status).toBe(302);
    // One batch, as a server stopped after it would leave it: whole batches only.
    await importChunk(services, importId!, 0);
    const batch = IMPORT_BATCH[database.driver];
    const [partway] = await database.db.select().from(memberImports).where(eq(memberImports.id, importId!));
    expect(partway).toMatchObject({ status: "running", processed: batch, created: batch });
    // A full batch may be the last: the run after it finds none left and finishes.
    for (let run = 1; run <= Math.floor(2_500 / batch); run += 1) await importChunk(services, importId!, 0);
    const [done] = await database.db.select().from(memberImports).where(eq(memberImports.id, importId!));
    expect(done).toMatchObject({ status: "done", processed: 2_500, created: 2_500 });
    const [bulk] = await database.db
      .select({ n: count() })
      .from(users)
      .where(sql`${users.email} like 'bulk%@example.org'`);
    expect(bulk!.n).toBe(2_500);
    // The members list past its exact count gives the database's estimate: right after the
    // import, within a tenth of the members there are.
    const [all] = await database.db.select({ n: count() }).from(users);
    const members = async (search: string) => {
      const response = await answer(
        membersLoader({
          request: new Request(`http://localhost/members${search}`, { headers: { cookie: adminCookie } }),
          params: {},
          context,
        }),
      );
      return ((await response.json()) as { list: { count: ListCount } }).list.count;
    };
    const listed = await members("");
    expect(listed.capped).toBe(true);
    expect(Math.abs(listed.n - all!.n) / all!.n, `${listed.n} listed of ${all!.n}`).toBeLessThanOrEqual(0.1);
    expect(matchLine(listed, "member", "members")).toMatch(/^About 2,[45]00 members match$/);
    // A filtered list past the cap gives no estimate: the planner's guess at a search is no count.
    for (const search of ["?q=bulk1", "?q=bulk", "?q=example.org&sort=username"]) {
      const filtered = await members(search);
      expect(filtered, search).toEqual({ n: COUNT_CAP + 1, capped: true });
      expect(matchLine(filtered, "member", "members")).toBe("More than 1,000 members match");
    }
    // A second start of a finished import is refused.
    expect((await post(importId!, "start")).status).toBe(400);
  });

  it("refuses a file it cannot import with a clear message, and leaves nothing", async () => {
    // A dry run a stopped server left half-way, long ago: the next upload clears it.
    const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
    const [stale] = await database.db
      .insert(memberImports)
      .values({
        adminId: admin!.id,
        fileName: "left.csv",
        encoding: "utf-8",
        columns: [],
        createdAt: new Date(Date.now() - 7 * 3_600_000),
      })
      .returning();
    await database.db
      .insert(memberImportRows)
      .values({ importId: stale!.id, line: 2, email: "left@example.org", action: "create" });
    const before = await counted();
    expect(await upload("name,phone\nAda,123\n")).toEqual({
      status: 400,
      error:
        'The file has no email column (its columns are: name, phone). The first line must name the columns, one of them "email".',
    });
    expect(await upload(new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0])]))).toMatchObject({
      status: 400,
      error: expect.stringMatching(/spreadsheet file/),
    });
    expect(await upload("email\n")).toEqual({
      status: 400,
      error: "The file has no members in it: only a header line.",
    });
    expect(await upload('email,name\na@example.org,"open\n')).toMatchObject({
      status: 400,
      error: expect.stringMatching(/cannot be read as CSV: a quoted cell is never closed/),
    });
    const big = new Blob([`email\n${"x".repeat(50 * 1024 * 1024)}`]);
    expect(await upload(big)).toEqual({ status: 400, error: IMPORT_TOO_LARGE });
    const noFile = new FormData();
    noFile.set("invite", "on");
    const missing = await answer(
      uploadAction({
        request: new Request("http://localhost/members/import", {
          method: "POST",
          body: noFile,
          headers: { cookie: adminCookie },
        }),
        params: {},
        context,
      }),
    );
    expect(await missing.json()).toEqual({ error: "Choose a CSV file to import." });
    expect(await counted()).toEqual({ ...before, imports: before.imports - 1 });
    expect(await database.db.select().from(memberImportRows).where(eq(memberImportRows.importId, stale!.id))).toEqual(
      [],
    );
  });

  it("is for admins only: a member is refused the page, the upload and the report", async () => {
    const member = await createUser(database.db, {});
    const cookie = await siteCookies(services.config).session.serialize(
      (await createSession(database.db, member.id)).id,
    );
    const page = await answer(
      importsLoader({
        request: new Request("http://localhost/members/import", { headers: { cookie } }),
        params: {},
        context,
      }),
    );
    expect(page.status).toBe(403);
    const before = await counted();
    const refused = await answer(
      uploadAction({ request: uploadRequest("email\nz@example.org\n", memberCookie), params: {}, context }),
    );
    expect(refused.status).toBe(403);
    expect(await counted()).toEqual(before);
  });
});
