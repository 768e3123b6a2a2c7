import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../helpers/db";
import { logInAs, startServer, type RunningServer } from "../helpers/server";

/**
 * A signed-in member's home, a NoL step page and the members list are kept as rendered by the
 * built server (docs/decisions/056-member-pages-kept.md): asked for again unchanged they are the
 * kept copy with the answer's own nonce, and a change — the member's own save through a form
 * without JavaScript, an admin's edit — shows at the next request, on the server that wrote it
 * and, on PostgreSQL, on another one.
 */
const TOKEN = "metrics-token-for-the-kept-pages-test-0123";

const databases = process.env.TEST_DATABASE_URL ? (["pglite", "postgres"] as const) : (["pglite"] as const);

describe.each(databases)("a member's kept pages on %s", (driver) => {
  let postgres: Awaited<ReturnType<typeof createPostgresDatabase>> | null = null;
  let a: RunningServer;
  /** A second server on the same database (PostgreSQL), else the same one. */
  let b: RunningServer;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    const env: Record<string, string> = { METRICS_TOKEN: TOKEN };
    if (driver === "postgres") {
      postgres = await createPostgresDatabase();
      Object.assign(env, {
        DATABASE_URL: postgres.url,
        SESSION_SECRET: randomBytes(32).toString("hex"),
        STATE_SECRET: randomBytes(32).toString("hex"),
      });
    }
    a = await startServer({ env });
    b = driver === "postgres" ? await startServer({ env }) : a;
    for (const login of ["member", "creator", "admin"]) cookies[login] = await logInAs(a.url, login);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b !== a ? b?.stop() : undefined]);
    await postgres?.drop();
  });

  const kept = async (server: RunningServer) => {
    const body = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const line = body.split("\n").find((l) => l.startsWith('memberhall_member_pages_total{source="kept"} '));
    return Number(line!.split(" ")[1]);
  };
  const send = (server: RunningServer, login: string, pathname: string, form?: Record<string, string>) =>
    fetch(`${server.url}${pathname}`, {
      method: form ? "POST" : "GET",
      headers: { cookie: cookies[login]!, "accept-encoding": "identity", ...(form ? { origin: server.url } : {}) },
      body: form ? new URLSearchParams(form) : undefined,
      redirect: "manual",
    });
  /**
   * The page until it is answered from the kept copy, with its own nonce: the first request for
   * a page is rendered as any other answer; the second is rendered to be kept, but reads the
   * session's viewer and the page's entries from the database, so it is not; the third reads
   * them from the caches and is kept.
   */
  const keptAnswer = async (server: RunningServer, login: string, pathname: string) => {
    for (let i = 0; i < 3; i += 1) await (await send(server, login, pathname)).text();
    const before = await kept(server);
    const response = await send(server, login, pathname);
    expect(response.status, pathname).toBe(200);
    const html = await response.text();
    expect(await kept(server), `${pathname} answered from the kept copy`).toBe(before + 1);
    if (response.headers.get("content-type")?.startsWith("text/html")) {
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
      const named = [...html.matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((match) => match[1]);
      expect(named.length).toBeGreaterThan(0);
      expect(new Set(named)).toEqual(new Set([nonce]));
    }
    expect(Number(response.headers.get("content-length"))).toBe(Buffer.byteLength(html));
    expect(response.headers.get("cache-control")).toBe("no-store");
    return html;
  };

  it("keeps a member's home for that member alone, and shows an admin's change at the next request", async () => {
    const home = await keptAnswer(b, "member", "/");
    expect(home).toContain('"username":"member"');
    expect(home).toContain('"nolCreator":false');
    // Another member's cookie is another page.
    expect(await (await send(b, "creator", "/")).text()).toContain('"username":"creator"');

    const list = await (await send(a, "admin", "/members?q=member&_data=routes%2Fmembers._index")).json();
    const id = (list.list.rows as { id: string; username: string }[]).find((r) => r.username === "member")!.id;
    const saved = await send(a, "admin", `/members/${id}`, { intent: "flags", nolCreator: "on" });
    expect(saved.status).toBeLessThan(400);
    const after = await (await send(b, "member", "/")).text();
    expect(after).toContain('"nolCreator":true');
  });

  it("keeps the members list, and shows a member's change at the next request", async () => {
    const tester = (html: string) => {
      const data = JSON.parse(/window\.__remixContext = (.*?);<\/script>/s.exec(html)![1]!);
      const rows = data.state.loaderData["routes/members._index"].list.rows as Array<Record<string, unknown>>;
      return rows.find((row) => row.username === "member")!.nolTester;
    };
    expect(tester(await keptAnswer(b, "admin", "/members?q=member"))).toBe(false);
    const rows = await (await send(a, "admin", "/members?q=member&_data=routes%2Fmembers._index")).json();
    const id = (rows.list.rows as { id: string; username: string }[]).find((r) => r.username === "member")!.id;
    const saved = await send(a, "admin", `/members/${id}`, { intent: "flags", nolCreator: "on", nolTester: "on" });
    expect(saved.status).toBeLessThan(400);
    expect(tester(await (await send(b, "admin", "/members?q=member")).text())).toBe(true);
  });

  it("shows a step saved through a form without JavaScript at once: the kept step page is not answered", async () => {
    const step = "/nol/creator/traffic-stop/notice?version=Kept%20one";
    const versions = "/api/entry/nol-member-versions";
    const named = async (server: RunningServer) =>
      (
        (await (await send(server, "creator", versions)).json()) as { list: Array<{ descriptive_version: string }> }
      ).list
        .map((entry) => entry.descriptive_version)
        .includes("Kept one");
    expect(await keptAnswer(a, "creator", step)).toContain("Round 1 Notice of Liability");
    await keptAnswer(b, "creator", step);
    // The versions API's answer is kept too, for the same cookie.
    expect(JSON.parse(await keptAnswer(b, "creator", "/api/entry/nol-member-versions")).list).toBeDefined();
    expect(await named(a)).toBe(false);
    const saved = await send(a, "creator", step, {
      claimantName: "Cara Creator",
      dailyAmount: "250",
      r1Name: "Officer Example",
      r1Type: "Official",
    });
    expect(saved.status).toBe(302);
    for (const server of [a, b]) {
      const again = await send(server, "creator", step);
      expect(again.status).toBe(302);
      expect(again.headers.get("location")).toMatch(/^\/nol\/creator\/traffic-stop\/mailing\?version=Kept(\+|%20)one$/);
      expect(await named(server)).toBe(true);
    }
  });
});
