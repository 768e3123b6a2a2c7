import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it, onTestFailed } from "vitest";
import { createPostgresDatabase } from "../helpers/db";
import { readPdf } from "../helpers/pdf";
import { SERVER_BUNDLE, logInAs, newDataDir, startServer, tempDataDir, type RunningServer } from "../helpers/server";

/**
 * A backup made and downloaded on /admin/backups, restored with `npm run restore` into a new
 * empty database, serves the same members, NoL entries, payments and documents as the server it
 * was made on: on the embedded database, and on PostgreSQL when TEST_DATABASE_URL is set.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const route = (id: string) => `_data=${encodeURIComponent(id)}`;

type Database = { env: Record<string, string>; dataDir: string; drop(): Promise<void> };

/** A new empty database of the driver's kind: a new DATA_DIR, or a new PostgreSQL database. */
async function emptyDatabase(driver: "pglite" | "postgres"): Promise<Database> {
  const dataDir = tempDataDir();
  if (driver === "pglite") return { env: {}, dataDir, drop: async () => {} };
  const created = await createPostgresDatabase();
  return { env: { DATABASE_URL: created.url }, dataDir, drop: created.drop };
}

/** The demo community with members and NoL entries at a small scale (their claims and notices too), as `npm run seed:scale` adds them. */
function seedCommunity(database: Database) {
  const seeded = spawnSync(process.execPath, [SERVER_BUNDLE], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      DEMO: "1",
      DATA_DIR: database.dataDir,
      LOG_LEVEL: "warn",
      MEMBERHALL_TASK: "seed-scale",
      SCALE_MEMBERS: "60",
      SCALE_ENTRIES: "400",
      ...database.env,
    } as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
  expect(seeded.status, seeded.stderr + seeded.stdout).toBe(0);
}

function restore(database: Database, file: string) {
  return spawnSync(process.execPath, ["scripts/restore.mjs", file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: database.dataDir, ...database.env } as unknown as NodeJS.ProcessEnv,
    encoding: "utf8",
  });
}

async function get(server: RunningServer, cookie: string, pathname: string) {
  const response = await fetch(`${server.url}${pathname}`, { headers: { cookie }, redirect: "manual" });
  expect(response.status, pathname).toBe(200);
  return response;
}

/** A donation by the demo member through the sandbox's card form: a payment with its receipt. */
async function donate(server: RunningServer, cookie: string) {
  const form = (await (await get(server, cookie, `/subscription?${route("routes/subscription._index")}`)).json()) as {
    attempt: string;
  };
  const post = (pathname: string, body: Record<string, string>) =>
    fetch(`${server.url}${pathname}`, {
      method: "POST",
      headers: { cookie, origin: server.url },
      body: new URLSearchParams(body),
      redirect: "manual",
    });
  const chosen = await post("/subscription", { attempt: form.attempt, planId: "donation", amount: "12.34" });
  expect(chosen.status).toBe(302);
  const card = chosen.headers.get("location")!;
  const paid = await post(card, { cardNumber: "4242 4242 4242 4242", expiry: "12/39", cvc: "123" });
  expect(paid.status, await paid.text()).toBe(302);
}

/**
 * The page data without what each visit itself changes: when a member was last seen, their
 * sessions, the audit log of the visits, and the form's new attempt id.
 */
function withoutVisits(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutVisits);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !["seen", "lastSeenAt", "sessions", "attempt", "audit"].includes(key))
      .map(([key, inner]) => [key, withoutVisits(inner)]),
  );
}

/** What the pages show of the community's data, read through them as the admin and the member read them. */
async function whatThePagesShow(server: RunningServer) {
  const admin = await logInAs(server.url, "admin");
  const member = await logInAs(server.url, "member");
  const json = async (cookie: string, pathname: string, id: string) =>
    (await get(server, cookie, `${pathname}${pathname.includes("?") ? "&" : "?"}${route(id)}`)).json();
  type List = { list: { rows: { id: string; username: string; nolCreator: boolean }[] } };
  const members = (await json(admin, "/members", "routes/members._index")) as List;
  const creators = (await json(admin, "/members?role=nolCreator&q=scale.example", "routes/members._index")) as List;
  const found = (await json(admin, "/members?q=member%40memberhall", "routes/members._index")) as List;
  const memberRow = found.list.rows.find((row) => row.username === "member")!;
  const billing = (await json(member, "/profile/billing", "routes/profile.billing._index")) as {
    billing: { payments: { id: string }[] };
  };
  const receipt = await json(
    member,
    `/profile/billing/receipts/${billing.billing.payments[0]!.id}`,
    "routes/profile.billing.receipts.$paymentId",
  );
  const documents = await Promise.all(
    [1, 2].map(async (id) => {
      const pdf = await get(server, admin, `/admin/templates/${id}/preview`);
      expect(pdf.headers.get("content-type")).toBe("application/pdf");
      return (await readPdf(await pdf.arrayBuffer())).pages;
    }),
  );
  return withoutVisits({
    members,
    creators,
    creatorPages: await Promise.all(
      creators.list.rows.slice(0, 3).map((row) => json(admin, `/members/${row.id}`, "routes/members.$userId")),
    ),
    memberPage: await json(admin, `/members/${memberRow.id}`, "routes/members.$userId"),
    entries: await json(admin, "/db/nol_entries", "routes/db.($entity).($view)"),
    notices: await json(admin, "/db/notices", "routes/db.($entity).($view)"),
    payments: await json(admin, "/db/payments", "routes/db.($entity).($view)"),
    billing,
    receipt,
    documents,
  }) as { members: List; creators: List; billing: typeof billing; entries: unknown };
}

const drivers: ["pglite" | "postgres"][] = [
  ["pglite"],
  ...(process.env.TEST_DATABASE_URL ? [["postgres"] as ["postgres"]] : []),
];

describe.each(drivers)("a backup restored into a new database (%s)", (driver) => {
  const made: Database[] = [];
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
    for (const database of made) await database.drop();
  });

  // Two servers (the first making its database), a backup and a restore: its waits are bounded
  // by their own deadlines, each of which a busy machine may take in full.
  it(
    "is made and downloaded on /admin/backups, restored by npm run restore, and serves the same data",
    { timeout: 300_000 },
    async () => {
      // A server that went away says why in its own output.
      onTestFailed(() => {
        for (const server of servers) process.stderr.write(`--- ${server.url}\n${server.output().slice(-4000)}\n`);
      });
      // On the embedded database, the demo's as a first start makes it; then the community at scale added.
      const first =
        driver === "pglite" ? { env: {}, dataDir: newDataDir({}), drop: async () => {} } : await emptyDatabase(driver);
      made.push(first);
      seedCommunity(first);
      const original = await startServer({ dataDir: first.dataDir, env: first.env });
      servers.push(original);
      const admin = await logInAs(original.url, "admin");
      await donate(original, await logInAs(original.url, "member"));
      const before = await whatThePagesShow(original);
      expect(before.creators.list.rows.length).toBeGreaterThan(0);
      // The demo membership's first payment, and the donation.
      expect(before.billing.billing.payments).toHaveLength(2);
      expect(JSON.stringify(before.entries)).toContain("Version");

      const ask = () =>
        fetch(`${original.url}/admin/backups`, {
          method: "POST",
          headers: { cookie: admin, origin: original.url },
          body: new URLSearchParams({ intent: "start" }),
          redirect: "manual",
        });
      const started = await ask();
      expect(started.status).toBe(302);
      const second = await ask();
      expect(second.status).toBe(409);
      expect(await second.text()).toContain("A backup is under way already");

      type Listed = {
        backups: { id: string; status: string; fileName: string; sha256: string | null; error: string | null }[];
      };
      let listed: Listed;
      const deadline = Date.now() + 60_000;
      do {
        await new Promise((resolve) => setTimeout(resolve, 250));
        listed = (await (
          await get(original, admin, `/admin/backups?${route("routes/admin_.backups._index")}`)
        ).json()) as Listed;
      } while (listed.backups[0]!.status !== "done" && listed.backups[0]!.status !== "failed" && Date.now() < deadline);
      const backup = listed.backups[0]!;
      expect(backup.error).toBeNull();
      expect(backup.status).toBe("done");
      expect(backup.fileName).toMatch(driver === "postgres" ? /-manual\.dump$/ : /-manual\.tar\.gz$/);
      const page = await (await get(original, admin, "/admin/backups")).text();
      expect(page).toContain(`href="/admin/backups/${backup.id}/download"`);

      const download = await get(original, admin, `/admin/backups/${backup.id}/download`);
      expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${backup.fileName}"`);
      const bytes = Buffer.from(await download.arrayBuffer());
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(backup.sha256);
      const file = path.join(tempDataDir(), backup.fileName);
      writeFileSync(file, bytes);
      // No temporary file is left beside the backup.
      expect(readdirSync(path.join(first.dataDir, "backups"))).toEqual([backup.fileName]);

      const target = await emptyDatabase(driver);
      made.push(target);
      const restored = restore(target, file);
      expect(restored.status, restored.stderr + restored.stdout).toBe(0);

      const copy = await startServer({ dataDir: target.dataDir, env: target.env });
      servers.push(copy);
      const after = await whatThePagesShow(copy);
      expect(after).toEqual(before);

      // The backup the database was restored from is listed as done, with its file's SHA-256.
      const copyAdmin = await logInAs(copy.url, "admin");
      const listedThere = (await (
        await get(copy, copyAdmin, `/admin/backups?${route("routes/admin_.backups._index")}`)
      ).json()) as Listed;
      expect(listedThere.backups[0]).toMatchObject({ id: backup.id, status: "done", sha256: backup.sha256 });
      // The backups list came along; the download and the made backup are in the audit log.
      const audit = (await (
        await get(copy, copyAdmin, `/db/audit_log?${route("routes/db.($entity).($view)")}`)
      ).json()) as object;
      expect(JSON.stringify(audit)).toContain("backups.start");

      // Where it was made, the audit log has the admin's backup and its download.
      const audited = JSON.stringify(
        await (await get(original, admin, `/db/audit_log?${route("routes/db.($entity).($view)")}`)).json(),
      );
      for (const action of ["backups.start", "backups.done", "backups.download"]) expect(audited).toContain(action);
      // A server without the file says so on the backups page.
      rmSync(path.join(first.dataDir, "backups", backup.fileName));
      const missing = await fetch(`${original.url}/admin/backups/${backup.id}/download`, {
        headers: { cookie: admin },
        redirect: "manual",
      });
      expect(missing.status).toBe(302);
      expect(missing.headers.get("location")).toBe("/admin/backups");
      const flash = missing.headers
        .getSetCookie()
        .find((c) => c.startsWith("mh_flash="))!
        .split(";")[0]!;
      const told = await (await get(original, `${admin}; ${flash}`, "/admin/backups")).text();
      expect(told).toContain(`file is no longer in ${path.join(first.dataDir, "backups")} on this server`);

      // Into a database that is not empty now, the same file is refused, and nothing changes.
      const again = restore(target, file);
      expect(again.status).toBe(2);
      expect(again.stderr.trim().split("\n")).toHaveLength(1);
      expect(again.stderr).toMatch(/^Not restored: .* is not empty: it holds /);
      expect(await whatThePagesShow(copy)).toEqual(before);

      // A file of the other kind is refused before anything is touched.
      const other = await emptyDatabase(driver);
      made.push(other);
      const otherKind =
        driver === "pglite"
          ? restore({ ...other, env: { DATABASE_URL: "postgres://nobody@127.0.0.1:1/nothing" } }, file)
          : restore({ ...other, env: {} }, file);
      expect(otherKind.status).toBe(2);
      expect(otherKind.stderr).toMatch(
        driver === "pglite"
          ? /is a backup of the embedded database: unset DATABASE_URL/
          : /is a PostgreSQL backup \(pg_dump\): set DATABASE_URL/,
      );
      expect(existsSync(path.join(other.dataDir, "pgdata"))).toBe(false);
    },
  );
});

describe("npm run restore with a file that is no backup", () => {
  it("refuses it, naming what it expected, and makes no database", () => {
    const dataDir = tempDataDir();
    const file = path.join(dataDir, "members.csv");
    writeFileSync(file, "email\nsomeone@example.org\n");
    const refused = restore({ env: {}, dataDir, drop: async () => {} }, file);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain("is not a memberhall backup: neither pg_dump's custom format nor");
    expect(existsSync(path.join(dataDir, "pgdata"))).toBe(false);
  });
});

describe("the backups pages' access", () => {
  let server: RunningServer;
  afterAll(async () => server?.stop());

  it("sends a visitor to log in, refuses a member, and lets no member ask for a backup", async () => {
    server = await startServer();
    const member = await logInAs(server.url, "member");
    for (const pathname of ["/admin/backups", "/admin/backups/00000000-0000-4000-8000-000000000000/download"]) {
      const visitor = await fetch(`${server.url}${pathname}`, { redirect: "manual" });
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
      const asMember = await fetch(`${server.url}${pathname}`, { headers: { cookie: member }, redirect: "manual" });
      expect(asMember.status).toBe(403);
    }
    const asked = await fetch(`${server.url}/admin/backups`, {
      method: "POST",
      headers: { cookie: member, origin: server.url },
      body: new URLSearchParams({ intent: "start" }),
      redirect: "manual",
    });
    expect(asked.status).toBe(403);
    const admin = await logInAs(server.url, "admin");
    const listed = (await (
      await fetch(`${server.url}/admin/backups?${route("routes/admin_.backups._index")}`, {
        headers: { cookie: admin },
      })
    ).json()) as { backups: unknown[] };
    expect(listed.backups).toEqual([]);
  });
});
