import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queriesOf } from "~/db/query-count.server";
import { ROUND_ONE_FIELDS } from "../helpers/mailings";
import { withinOneMinute } from "../helpers/minute";
import { readPdf } from "../helpers/pdf";
import { startS3Standin, type S3Standin } from "../helpers/s3-standin";
import { freePort, SERVER_BUNDLE } from "../helpers/server";
import {
  BACKUPS_DATA,
  newestBackupOnceSettled,
  STORE_PREFIX,
  storeEnv,
  type BackupsPage,
} from "../helpers/backup-store";
import { httpsClient, sessionCookie, setCookies, type Answer } from "./client";
import { startNginx } from "./nginx";
import { startPostgres, type PostgresInstance } from "./postgres-instance";
import { supervise, type Supervised } from "./supervisor";
import { makeCertificates } from "./tls";

const ROOT = path.resolve(import.meta.dirname, "../..");
const PASSWORD = "memberhall-demo";
/** How long a request may take while PostgreSQL restarts: the pool gives up connecting after 5 s. */
const SLOWEST_ALLOWED_MS = 10_000;
/** How long PostgreSQL stays away, as a restart for a minor upgrade does. */
/** How soon a change made on one server is seen on the other: its notification's way, far under the caches' minute. */
const NOTIFIED_WITHIN_MS = 1_000;
const POSTGRES_AWAY_MS = 5_000;
/** A page that reads the database on every request (the servers keep viewers, not notices). */
const NOTICE_PAGE = "/nol/creator/traffic-stop/notice?version=Deploy";
/** A notice the creator saves before the backup: the round's mailing page and its letter are read again after the restore. */
const RESTORED_NOTICE = "/nol/creator/traffic-stop/notice?version=Restored";
const RESTORED_MAILING_PAGE = "/nol/creator/traffic-stop/mailing?version=Restored";
const RESTORED_LETTER = "/nol/creator/traffic-stop/notice.pdf?version=Restored&round=1";
/** How long a backup of the demo database, sent to the stand-in, may take. */
const BACKUP_WITHIN_MS = 60_000;

/** Runs a command to its end, not holding the event loop (the S3 stand-in answers in this process); its code and output. */
function run(
  command: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: env as NodeJS.ProcessEnv });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

/** The recipe's environment file, as systemd reads it: KEY=VALUE lines, quotes taken off. */
function envTemplate(): Record<string, string> {
  const text = readFileSync(path.join(ROOT, "deploy/memberhall.env.example"), "utf8");
  const entries = text
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => {
      const at = line.indexOf("=");
      return [line.slice(0, at), line.slice(at + 1).replace(/^"(.*)"$/, "$1")] as const;
    });
  return Object.fromEntries(entries);
}

type Tally = {
  requests: number;
  byStatus: Record<string, number>;
  failures: string[];
  slowestMs: number;
  answers: Array<{ target: string; answer: Answer }>;
};

describe("the production recipe: nginx, two built servers, one PostgreSQL", () => {
  let work: string;
  let postgres: PostgresInstance;
  let databaseUrl: string;
  let env: Record<string, string>;
  let serverPorts: number[];
  let pidDir: string;
  let standin: S3Standin;
  /** The operator's private key file, kept off the servers. */
  let keyFile: string;
  const servers: Supervised[] = [];
  let nginx: Awaited<ReturnType<typeof startNginx>>;
  let origin: string;
  let ca: Buffer;
  let client: ReturnType<typeof httpsClient>;
  let member = "";
  let creator = "";
  let memberName = "";
  const report: string[] = [];
  const cookiesSeen: string[] = [];

  const query = async (text: string, values: unknown[] = []) => {
    const connection = new pg.Client({ connectionString: databaseUrl });
    await connection.connect();
    try {
      return (await connection.query(text, values)).rows;
    } finally {
      await connection.end();
    }
  };

  /** Both servers on their ports: the first migrates (and seeds a new database), the second finds it made. */
  const startServers = async () => {
    for (const port of serverPorts) {
      const server = supervise(port, env, pidDir);
      servers.push(server);
      await server.listening();
    }
  };

  const logIn = async (login: string, through = client) => {
    const answer = await through.request("POST", "/login", { form: { login, password: PASSWORD } });
    cookiesSeen.push(...setCookies(answer));
    return sessionCookie(answer);
  };

  beforeAll(async () => {
    if (!existsSync(SERVER_BUNDLE)) throw new Error("Build the app first: npm run build");
    work = mkdtempSync(path.join(os.tmpdir(), "memberhall-deploy-"));
    postgres = await startPostgres();
    databaseUrl = await createSiteDatabase(postgres);
    standin = await startS3Standin({ dir: path.join(work, "store") });
    // The operator's key pair, made as the README says: only the public half goes to the servers.
    keyFile = path.join(work, "memberhall-backup-key.txt");
    const keygen = await run("npm", ["run", "--silent", "backup:keygen", "--", keyFile], process.env);
    expect(keygen.code, keygen.output).toBe(0);
    const recipient = /^BACKUP_ENCRYPTION_RECIPIENT=(age1\w+)$/m.exec(keygen.output)![1]!;

    const certificates = makeCertificates(work);
    ca = certificates.ca;
    const ports = new Set<number>();
    while (ports.size < 4) ports.add(await freePort());
    const [httpPort, httpsPort, ...appPorts] = [...ports] as [number, number, number, number];
    serverPorts = appPorts;
    origin = `https://localhost:${httpsPort}`;

    env = {
      ...envTemplate(),
      BASE_URL: origin,
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(work, "data"),
      SESSION_SECRET: randomBytes(32).toString("hex"),
      STATE_SECRET: randomBytes(32).toString("hex"),
      STATE_PRIVATE_KEY: randomBytes(32).toString("hex"),
      // Mail stays in the outbox, where the test finds what the job runner sent.
      MAIL: "outbox",
      SEED_DEMO: "1",
      // The seeded demo admin has no second factor: here it acts as an admin without one.
      MFA_REQUIRED_FOR: "none",
      // Each answer names its query count: a cache that keeps tells that its LISTEN is heard.
      SERVER_TIMING: "1",
      ...storeEnv(standin, recipient),
    };
    pidDir = path.join(work, "pids");
    mkdirSync(pidDir);
    await startServers();
    nginx = await startNginx({
      dir: work,
      baseUrl: origin,
      servers: servers.map((s) => `127.0.0.1:${s.port}`),
      httpListen: `127.0.0.1:${httpPort}`,
      httpsListen: `127.0.0.1:${httpsPort}`,
      ...certificates,
    });
    client = httpsClient(origin, ca);
    member = await logIn("member");
    creator = await logIn("creator");
    memberName = (await query("select name from users where username = 'member'"))[0]!.name as string;
    report.push(
      `nginx ${nginxVersion()} on ${origin} → servers on ports ${serverPorts.join(", ")}, PostgreSQL on ${postgres.port}`,
    );
  }, 240_000);

  afterAll(async () => {
    client?.close();
    await nginx?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await postgres?.remove();
    await standin?.close();
    if (work) rmSync(work, { recursive: true, force: true });
    process.stdout.write(`\n== deploy report\n${report.join("\n")}\n\n`);
  }, 120_000);

  /**
   * Runs `during` under steady load through nginx: loops of the visitor's home, /login, a
   * signed-in page, a signed-in API call and a form post that saves the member's name as it is,
   * one second before and after. Each loop waits for its answer before the next request, so the load is bounded.
   */
  async function underLoad<T>(during: () => Promise<T>, loops = 6): Promise<{ result: T; tally: Tally }> {
    const tally: Tally = { requests: 0, byStatus: {}, failures: [], slowestMs: 0, answers: [] };
    const targets: Array<[string, () => Promise<Answer>]> = [
      ["GET /", () => client.request("GET", "/")],
      ["GET /login", () => client.request("GET", "/login")],
      ["GET /profile", () => client.request("GET", "/profile", { cookie: member })],
      ["GET /api/billing/membership", () => client.request("GET", "/api/billing/membership", { cookie: member })],
      [
        "POST /profile",
        () => client.request("POST", "/profile", { cookie: member, form: { intent: "name", name: memberName } }),
      ],
    ];
    let running = true;
    const loop = async (offset: number) => {
      for (let i = offset; running; i += 1) {
        const [target, send] = targets[i % targets.length]!;
        tally.requests += 1;
        const started = performance.now();
        try {
          const answer = await send();
          tally.slowestMs = Math.max(tally.slowestMs, answer.ms);
          tally.byStatus[answer.status] = (tally.byStatus[answer.status] ?? 0) + 1;
          tally.answers.push({ target, answer: { ...answer, body: answer.status >= 500 ? answer.body : "" } });
          cookiesSeen.push(...setCookies(answer));
          if (answer.status >= 500) tally.failures.push(`${target}: ${answer.status}`);
        } catch (error) {
          tally.slowestMs = Math.max(tally.slowestMs, performance.now() - started);
          tally.byStatus.error = (tally.byStatus.error ?? 0) + 1;
          tally.failures.push(`${target}: ${(error as Error).message}`);
        }
      }
    };
    const done = Promise.all(Array.from({ length: loops }, (_, i) => loop(i)));
    // However `during` ends, the loops stop within a few minutes.
    const limit = setTimeout(() => (running = false), 300_000);
    try {
      await sleep(1_000);
      const result = await during();
      await sleep(1_000);
      return { result, tally };
    } finally {
      running = false;
      clearTimeout(limit);
      await done;
    }
  }

  /** A page of the database as one server answers it directly, not through nginx. */
  const direct = (server: Supervised, pathname: string, cookie = creator) =>
    fetch(`${server.url}${pathname}`, { headers: { cookie }, redirect: "manual", signal: AbortSignal.timeout(15_000) });

  it("serves the site over HTTPS through the rendered recipe: redirects HTTP, hides /metrics, caches the build", async () => {
    expect(nginx.site).not.toMatch(/\{\{\w+\}\}/);
    const home = await client.request("GET", "/");
    expect(home.status).toBe(200);
    const asset = /\/build\/[\w./-]+\.js/.exec(home.body)?.[0];
    expect(asset).toBeDefined();
    const built = await client.request("GET", asset!);
    expect(built.status).toBe(200);
    expect(built.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    expect((await client.request("GET", "/metrics")).status).toBe(404);
    expect((await client.request("GET", "/metrics/")).status).toBe(404);

    const httpPort = /listen 127\.0\.0\.1:(\d+);/.exec(nginx.site)![1];
    const plain = await fetch(`http://127.0.0.1:${httpPort}/login?next=x`, { redirect: "manual" });
    expect(plain.status).toBe(301);
    expect(plain.headers.get("location")).toBe(`${origin}/login?next=x`);

    expect((await client.request("GET", NOTICE_PAGE, { cookie: creator })).status).toBe(200);
  });

  it("records the client's own address in the audit log and counts the rate limit per client behind nginx", async () => {
    const elsewhere = httpsClient(origin, ca, "127.0.0.2");
    try {
      // nginx replaces a forwarded address the client made up.
      const answer = await elsewhere.request("POST", "/login", {
        form: { login: "member", password: PASSWORD },
        headers: { "x-forwarded-for": "203.0.113.7" },
      });
      expect(answer.status).toBe(302);
    } finally {
      elsewhere.close();
    }
    const [row] = await query(
      `select a.ip from audit_log a join users u on u.id = a.actor_user_id
       where u.username = 'member' and a.action = 'login' order by a.id desc limit 1`,
    );
    report.push(`audit log client address: ${row?.ip}`);
    expect(row?.ip).toBe("127.0.0.2");

    await withinOneMinute(20);
    const busy = httpsClient(origin, ca, "127.0.0.3");
    const other = httpsClient(origin, ca, "127.0.0.4");
    try {
      // Logins no account has: an account's own failures have a limit of their own.
      let tried = 0;
      const attempt = (through: typeof busy) =>
        through.request("POST", "/login", { form: { login: `nobody-${(tried += 1)}`, password: "not the password" } });
      for (let i = 0; i < 10; i += 1) expect((await attempt(busy)).status).not.toBe(429);
      expect((await attempt(busy)).status).toBe(429);
      expect((await attempt(other)).status).not.toBe(429);
      report.push("rate limit: the 11th login from 127.0.0.3 refused (429), 127.0.0.4 let through");
    } finally {
      busy.close();
      other.close();
    }
  });

  it("drops no request through a rolling restart of both servers under load", async () => {
    const pidsBefore = servers.map((s) => s.pid());
    const resentBefore = client.resent();
    const { result, tally } = await underLoad(() =>
      run("bash", [path.join(ROOT, "deploy/rolling-restart.sh"), ...servers.map((s) => String(s.port))], {
        ...process.env,
        RESTART_CMD: `bash ${path.join(ROOT, "tests/deploy/restart-server.sh")} ${pidDir} `,
        NGINX_SITE: nginx.sitePath,
        NGINX_RELOAD_CMD: nginx.reloadCommand,
      }),
    );
    report.push(
      `rolling restart: ${tally.requests} requests, ${tally.failures.length} failed ${JSON.stringify(tally.byStatus)}; ` +
        `${client.resent() - resentBefore} sent again on a new connection after nginx's reload closed a kept-alive one`,
    );
    expect(result.code, result.output).toBe(0);
    expect(servers.map((s) => s.pid())).not.toEqual(expect.arrayContaining(pidsBefore.filter(Boolean)));
    const lifecycle = (server: Supervised) =>
      server
        .output()
        .split("\n")
        .filter((line) => /listening on|shutting down|"stopped"|could not start|fatal/.test(line))
        .join("\n");
    for (const server of servers) expect(server.exits(), lifecycle(server)).toEqual([0]);
    // The connections refused while a server started are expected; the rest tell why a request failed.
    const errors = nginx
      .errorLog()
      .split("\n")
      .filter((line) => !/Connection refused|temporarily disabled|signal|reconfiguring|gracefully/.test(line));
    expect(tally.failures.slice(0, 20), errors.slice(-20).join("\n")).toEqual([]);
    // Every server is back in the site as it was rendered.
    expect(readFileSync(nginx.sitePath, "utf8")).toBe(nginx.site);
    for (const target of ["GET /", "GET /login", "GET /profile", "GET /api/billing/membership", "POST /profile"]) {
      expect(tally.answers.filter((a) => a.target === target).length, target).toBeGreaterThan(0);
    }
  }, 300_000);

  it("answers through a PostgreSQL restart without a 500 or a hang, then every server serves again by itself", async () => {
    const [a, b] = servers as [Supervised, Supervised];
    const { result, tally } = await underLoad(async () => {
      await postgres.stop();
      await sleep(POSTGRES_AWAY_MS);
      await postgres.start();
      const returned = performance.now();
      return Promise.all(
        servers.map(async (server) => {
          for (;;) {
            const answer = await direct(server, NOTICE_PAGE).catch(() => null);
            await answer?.arrayBuffer();
            if (answer?.status === 200) return (performance.now() - returned) / 1_000;
            if (performance.now() - returned > 60_000)
              throw new Error(`port ${server.port} not serving 60 s after PostgreSQL returned`);
            await sleep(100);
          }
        }),
      );
    });
    const statuses = Object.entries(tally.byStatus)
      .map(([status, count]) => `${status}: ${count}`)
      .join(", ");
    report.push(
      `postgres restart: ${tally.requests} requests {${statuses}}, ${tally.byStatus[500] ? "500s" : "no 500"}, slowest ${Math.round(tally.slowestMs)} ms`,
    );
    report.push(
      `servers serving again ${Math.max(...result).toFixed(1)} s after PostgreSQL returned (${result.map((s) => s.toFixed(1)).join(" s, ")} s)`,
    );

    expect(tally.byStatus[500] ?? 0).toBe(0);
    expect(tally.byStatus.error ?? 0).toBe(0);
    // nginx answers 502 or 504 only when no server answered at all.
    expect(tally.byStatus[502] ?? 0).toBe(0);
    expect(tally.byStatus[504] ?? 0).toBe(0);
    expect(tally.slowestMs).toBeLessThan(SLOWEST_ALLOWED_MS);
    const sessionFree = tally.answers.filter((a) => a.target === "GET /" || a.target === "GET /login");
    expect(sessionFree.filter((a) => a.answer.status !== 200).map((a) => `${a.target}: ${a.answer.status}`)).toEqual(
      [],
    );
    // While the database was away the pages that read it answered the unavailable page.
    const unavailable = tally.answers.filter((a) => a.answer.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const { target, answer } of unavailable) {
      expect(answer.headers["retry-after"]).toBe("30");
      expect(answer.body).toContain("The service is briefly unavailable");
      // The API says it in its own shape: JSON with an error.
      if (target.includes(" /api/")) expect(JSON.parse(answer.body)).toHaveProperty("error");
    }
    expect(
      unavailable.some((a) => a.target.includes(" /api/")),
      "an API call answered 503 while PostgreSQL was away",
    ).toBe(true);

    // The job runner works again: a password reset's mail is queued as a job and sent to the outbox.
    const [{ email }] = (await query("select email from users where username = 'member'")) as [{ email: string }];
    const [{ last }] = (await query("select coalesce(max(id), 0) as last from mail_outbox")) as [{ last: string }];
    const reset = await client.request("POST", "/login/help", { form: { email } });
    expect(reset.status).toBe(200);
    const queued = performance.now();
    let mailed = false;
    while (!mailed && performance.now() - queued < 30_000) {
      mailed = (await query('select 1 from mail_outbox where id > $1 and "to" = $2', [last, email])).length > 0;
      if (!mailed) await sleep(250);
    }
    expect(mailed).toBe(true);
    report.push(
      `job runner after the restart: the reset mail reached the outbox in ${((performance.now() - queued) / 1_000).toFixed(1)} s`,
    );

    // Server B keeps the catalogue again (an answer without a query) only once its LISTEN is heard.
    const listening = performance.now();
    let kept = false;
    while (!kept && performance.now() - listening < 20_000) {
      const answer = await direct(b, "/api/config/causes");
      await answer.arrayBuffer();
      kept = queriesOf(answer.headers.get("server-timing")) === 0;
      if (!kept) await sleep(250);
    }
    expect(kept).toBe(true);
    const admin = await logIn("admin");
    const added = await fetch(`${a.url}/causes`, {
      method: "POST",
      headers: { cookie: admin, origin: a.url },
      body: new URLSearchParams({ intent: "add-cause", code: "DPLY", label: "Deploy", name: "After The Restart" }),
      redirect: "manual",
    });
    expect(added.status).toBeLessThan(400);
    expect(await query("select name from causes where code = 'DPLY'")).toEqual([{ name: "After The Restart" }]);
    const causesOn = async (server: Supervised) =>
      ((await (await direct(server, "/api/config/causes")).json()) as { causes: Record<string, { name: string }> })
        .causes;
    // PostgreSQL hands a notification to the listening connection a moment after the commit, and
    // a request sent to B straight after A's answer can come first: B must see the change within
    // a second (the notification's own way), not at its cache's expiry a minute on.
    const addedAt = performance.now();
    let heardAfterMs: number | null = null;
    while (heardAfterMs === null && performance.now() - addedAt < 5_000) {
      if ((await causesOn(b)).DPLY?.name === "After The Restart") heardAfterMs = performance.now() - addedAt;
      else await sleep(20);
    }
    expect(heardAfterMs, "the other server never saw the cause added").not.toBeNull();
    expect(heardAfterMs!).toBeLessThan(NOTIFIED_WITHIN_MS);
    report.push(
      `LISTEN after the restart: a cause added on one server seen by the other ${Math.round(heardAfterMs!)} ms later`,
    );
  }, 300_000);

  it("sends HSTS and only Secure cookies over HTTPS, and refuses a post whose forwarded host is not its origin", async () => {
    const home = await client.request("GET", "/");
    const hsts = home.headers["strict-transport-security"];
    const insecure = [...new Set(cookiesSeen.filter((c) => !/;\s*secure\b/i.test(c)).map((c) => c.split("=")[0]))];
    const names = [...new Set(cookiesSeen.map((c) => c.split("=")[0]))];
    // nginx sets X-Forwarded-Host itself, so only a request that reaches a server some other
    // way can carry one unlike its Origin: asked of a server directly.
    const server = servers[0]!;
    const forwarded = await fetch(`${server.url}/profile`, {
      method: "POST",
      headers: { cookie: member, origin: server.url, "x-forwarded-host": "elsewhere.example" },
      body: new URLSearchParams({ intent: "name", name: memberName }),
      redirect: "manual",
    });
    report.push(`HSTS: ${hsts ?? "missing"}`);
    report.push(`cookies seen: ${names.join(", ")}; without Secure: ${insecure.join(", ") || "none"}`);
    report.push(`post with X-Forwarded-Host unlike its Origin: ${forwarded.status}`);
    if (forwarded.status >= 500) {
      const failed = server
        .output()
        .split("\n")
        .filter((line) => line.includes('"request failed"'))
        .at(-1);
      report.push(
        `  the server's error: ${failed ? (JSON.parse(failed) as { err?: { message?: string } }).err?.message : "none logged"}`,
      );
    }
    expect(hsts).toMatch(/max-age=\d+/);
    expect(names).toEqual(
      expect.arrayContaining([expect.stringMatching(/mh_session$/), expect.stringMatching(/mh_flash$/)]),
    );
    expect(insecure).toEqual([]);
    expect(forwarded.status).toBe(403);
  });

  /**
   * What the site shows of its data, read through nginx with the sessions signed in before the
   * backup: the members (their number and the demo member as the admin's list has them), the
   * member's home, the creator's notice (its round's mailing page), the admin's members list, and
   * the notice's letter.
   */
  async function whatTheSiteShows(admin: string) {
    type Members = { list: { count: { n: number }; rows: Array<Record<string, unknown>> } };
    const listed = await client.request("GET", `/members?_data=${encodeURIComponent("routes/members._index")}`, {
      cookie: admin,
    });
    const { list } = JSON.parse(listed.body) as Members;
    // When a member was last seen changes with each visit, not with a restore.
    const { seen: _seen, ...named } = list.rows.find((row) => row.username === "member")!;
    const shown = async (pathname: string, cookie: string, words: string) => {
      const answer = await client.request("GET", pathname, { cookie });
      return { pathname, status: answer.status, shows: answer.body.includes(words) };
    };
    // A letter is a download, read from a server directly: the test's client reads text.
    const letter = await direct(servers[0]!, RESTORED_LETTER);
    return {
      members: list.count.n,
      named,
      pages: [
        await shown("/", member, String(named.email)),
        await shown(RESTORED_MAILING_PAGE, creator, ROUND_ONE_FIELDS.r1Name),
        await shown("/members", admin, String(named.email)),
      ],
      letter: { status: letter.status, text: (await readPdf(await letter.arrayBuffer())).pages },
    };
  }

  it("restores the whole site from the store onto a new PostgreSQL: the same members, pages, documents and sessions", async () => {
    const admin = await logIn("admin");
    const notice = await client.request("POST", RESTORED_NOTICE, {
      cookie: creator,
      form: { version: "Restored", ...ROUND_ONE_FIELDS },
    });
    expect(notice.status).toBe(302);
    const before = await whatTheSiteShows(admin);
    expect(before.pages.map((page) => [page.pathname, page.status, page.shows])).toEqual(
      before.pages.map((page) => [page.pathname, 200, true]),
    );
    expect(before.letter.text.join("\n")).toContain(ROUND_ONE_FIELDS.r1Name);

    const asked = performance.now();
    expect((await client.request("POST", "/admin/backups", { cookie: admin, form: { intent: "start" } })).status).toBe(
      302,
    );
    const backup = await newestBackupOnceSettled(
      async () => JSON.parse((await client.request("GET", BACKUPS_DATA, { cookie: admin })).body) as BackupsPage,
      BACKUP_WITHIN_MS,
    );
    expect(backup).toMatchObject({ status: "done", error: null, place: "store", encryption: "age" });
    expect(existsSync(standin.objectPath(`${STORE_PREFIX}${backup.fileName}`))).toBe(true);
    const backedUp = (performance.now() - asked) / 1_000;

    // The site is lost: its servers, their data directory, and PostgreSQL with its files.
    const lost = performance.now();
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    await postgres.remove();
    rmSync(env.DATA_DIR!, { recursive: true, force: true });

    // A new machine's PostgreSQL with an empty database, the servers' settings, and the key.
    postgres = await startPostgres();
    databaseUrl = await createSiteDatabase(postgres);
    env = { ...env, DATABASE_URL: databaseUrl };
    const restoring = performance.now();
    const restored = await run("npm", ["run", "--silent", "restore", "--", "--latest"], {
      PATH: process.env.PATH,
      ...env,
      BACKUP_IDENTITY_FILE: keyFile,
    });
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toContain(`is ${backup.fileName}`);
    const restoredIn = (performance.now() - restoring) / 1_000;
    await startServers();
    const after = await whatTheSiteShows(admin);
    report.push(
      `backup: ${backup.fileName} (${Math.round(backup.bytes! / 1024)} KiB, age) made and sent to the store in ${backedUp.toFixed(1)} s`,
    );
    report.push(
      `site thrown away and restored from the store: npm run restore -- --latest ${restoredIn.toFixed(1)} s, ` +
        `serving again ${((performance.now() - lost) / 1_000).toFixed(1)} s after it was lost; ` +
        `${after.members} members, pages ${after.pages.map((page) => `${page.pathname} ${page.status}`).join(", ")}, letter ${after.letter.status}`,
    );
    // The sessions signed in before the backup still sign in: the pages answer, not /login.
    expect(after).toEqual(before);
  });
});

/** The site's own database, made new on the instance; its URL. */
async function createSiteDatabase(instance: PostgresInstance): Promise<string> {
  const admin = new pg.Client({ connectionString: instance.url });
  await admin.connect();
  await admin.query("create database memberhall");
  await admin.end();
  return instance.url.replace(/\/postgres$/, "/memberhall");
}

/** The nginx the test runs, as `nginx -v` names it. */
function nginxVersion(): string {
  const { stderr } = spawnSync(process.env.NGINX_BIN ?? "nginx", ["-v"], { encoding: "utf8" });
  return /nginx\/([\d.]+)/.exec(stderr)?.[1] ?? "(version unknown)";
}
