import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, logInAs, removeMadeDataDirs, startServer, type RunningServer } from "../helpers/server";
import { valueOf } from "../helpers/metrics";

afterAll(removeMadeDataDirs);

const TOKEN = "metrics-token-for-the-server-test-0123456789";

/** Prometheus's own check of an exposition (Debian's prometheus package; scripts/test.sh installs it). */
function promtoolCheck(body: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("promtool", ["check", "metrics"], { stdio: ["pipe", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) =>
      reject(new Error(`promtool could not run (apt-get install prometheus): ${error.message}`)),
    );
    child.on("close", (code) => resolve({ code, output }));
    child.stdin.end(body);
  });
}

async function scrape(url: string, token?: string) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const response = await fetch(url, { headers, redirect: "manual" });
  return { response, body: await response.text() };
}

describe("/metrics on the app's port, with a token", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ env: { METRICS_TOKEN: TOKEN } });
    for (const path of [
      "/",
      "/api/config",
      "/no-such-page",
      "/api/no-such-thing",
      "/members/6f1c2a9e-0d4b-4c55-9a51-3e0c8f7b1d22",
    ]) {
      await (await fetch(`${server.url}${path}`, { redirect: "manual" })).arrayBuffer();
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("answers 401 with a Bearer challenge without the token or with a wrong one", async () => {
    for (const token of [undefined, "metrics-token-for-the-server-test-0123456780", "x"]) {
      const { response, body } = await scrape(`${server.url}/metrics`, token);
      expect(response.status, String(token)).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
      expect(body).not.toContain("memberhall_");
    }
  });

  it("answers the token's bearer in Prometheus's text format, each request under its route's pattern", async () => {
    const { response, body } = await scrape(`${server.url}/metrics`, TOKEN);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const requests = (route: string, status: number) =>
      valueOf(body, `memberhall_http_request_duration_seconds_count{method="GET",route="${route}",status="${status}"}`);
    expect(requests("/", 200)).toBeGreaterThanOrEqual(1);
    expect(requests("/api/config", 200)).toBeGreaterThanOrEqual(1);
    expect(requests("unmatched", 404)).toBeGreaterThanOrEqual(1);
    expect(requests("/members/:userId", 302)).toBe(1);
    expect(body).not.toContain("6f1c2a9e");
    expect(body).not.toContain('route="/no-such-page"');
    expect(valueOf(body, "memberhall_db_query_duration_seconds_count")).toBeGreaterThan(0);
    expect(valueOf(body, 'memberhall_job_failures_total{job="password-reset-mail"}')).toBe(0);
    expect(valueOf(body, 'memberhall_job_queue_jobs{queue="password-reset-mail",state="created"}')).not.toBeNull();
    expect(valueOf(body, 'memberhall_members_import_lines{state="all"}')).toBe(0);
    expect(valueOf(body, "nodejs_eventloop_lag_seconds")).not.toBeNull();
  });

  it("tells when the last backup was made, from none to one an admin asks for", async () => {
    const last = async () =>
      valueOf((await scrape(`${server.url}/metrics`, TOKEN)).body, "memberhall_backup_last_success_timestamp_seconds");
    const { body } = await scrape(`${server.url}/metrics`, TOKEN);
    expect(valueOf(body, 'memberhall_backup_tables{state="all"}')).toBe(0);
    expect(await last()).toBe(0);
    const asked = Date.now() / 1000;
    const admin = await logInAs(server.url, "admin");
    const started = await fetch(`${server.url}/admin/backups`, {
      method: "POST",
      headers: { cookie: admin, origin: server.url },
      body: new URLSearchParams({ intent: "start" }),
      redirect: "manual",
    });
    expect(started.status).toBe(302);
    const until = Date.now() + 60_000;
    while ((await last()) === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await last()).toBeGreaterThanOrEqual(Math.floor(asked));
  });

  it("counts an e-mail the job runner sends", async () => {
    const sent = async () =>
      valueOf(
        (await scrape(`${server.url}/metrics`, TOKEN)).body,
        'memberhall_mail_messages_total{transport="outbox",outcome="sent"}',
      );
    const before = await sent();
    expect(before).not.toBeNull();
    const asked = await fetch(`${server.url}/login/help`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ email: "member@memberhall.example" }),
    });
    expect(asked.status).toBe(200);
    const until = Date.now() + 20_000;
    while ((await sent())! <= before! && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await sent()).toBe(before! + 1);
  });

  it("answers a visitor page from the copy it keeps, each answer with a nonce of its own, and a member's page as rendered", async () => {
    const served = async () => {
      const { body } = await scrape(`${server.url}/metrics`, TOKEN);
      return {
        kept: valueOf(body, 'memberhall_visitor_pages_total{source="kept"}')!,
        rendered: valueOf(body, 'memberhall_visitor_pages_total{source="rendered"}')!,
      };
    };
    const before = await served();
    const nonces = new Set<string>();
    const pages = new Set<string>();
    // The first request for a page is rendered as any other answer, the second to be kept.
    for (let i = 0; i < 4; i += 1) {
      // Uncompressed, to read the length the server gave it.
      const response = await fetch(`${server.url}/login`, { headers: { "accept-encoding": "identity" } });
      expect(response.status).toBe(200);
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
      expect(nonce).toBeDefined();
      const html = await response.text();
      expect(Number(response.headers.get("content-length"))).toBe(Buffer.byteLength(html));
      // Every script names the answer's nonce, and no other.
      const named = [...html.matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((match) => match[1]);
      expect(named.length).toBeGreaterThan(0);
      expect(new Set(named)).toEqual(new Set([nonce]));
      nonces.add(nonce!);
      pages.add(html.replaceAll(nonce!, "NONCE"));
    }
    expect(nonces.size).toBe(4);
    expect(pages.size).toBe(1);
    const after = await served();
    expect(after.kept - before.kept).toBeGreaterThanOrEqual(2);

    // A visitor page that sets a cookie is rendered for each visitor, with the answer's nonce too.
    for (let i = 0; i < 2; i += 1) {
      const response = await fetch(`${server.url}/signup?plan=monthly`);
      expect(response.headers.get("set-cookie")).toMatch(/plan/);
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
      const named = [...(await response.text()).matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((match) => match[1]);
      expect(named.length).toBeGreaterThan(0);
      expect(new Set(named)).toEqual(new Set([nonce]));
    }

    // Someone signed in is never answered from a visitor's copy.
    const member = await logInAs(server.url, "member");
    const home = await (await fetch(`${server.url}/`, { headers: { cookie: member } })).text();
    expect(home).toContain(">Logout<");
    const visitorHome = await (await fetch(`${server.url}/`)).text();
    expect(visitorHome).not.toContain(">Logout<");
  });

  it("answers /api/config from its kept copy to anyone, cookie or not, and 304 to a request naming its ETag", async () => {
    const kept = async () =>
      valueOf((await scrape(`${server.url}/metrics`, TOKEN)).body, 'memberhall_visitor_pages_total{source="kept"}')!;
    const member = await logInAs(server.url, "member");
    const first = await fetch(`${server.url}/api/config`);
    const body = await first.text();
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"/);
    const before = await kept();
    for (const headers of [{}, { cookie: member }] as Array<Record<string, string>>) {
      const again = await fetch(`${server.url}/api/config`, { headers });
      expect(again.status).toBe(200);
      expect(await again.text()).toBe(body);
      expect(again.headers.get("etag")).toBe(etag);
      expect(again.headers.get("cache-control")).toBe("public, max-age=60");
      expect(again.headers.get("content-type")).toMatch(/^application\/json/);
      const known = await fetch(`${server.url}/api/config`, { headers: { ...headers, "if-none-match": etag } });
      expect(known.status).toBe(304);
      expect(await known.text()).toBe("");
      expect(known.headers.get("etag")).toBe(etag);
    }
    expect(await kept()).toBe(before + 4);
  });

  it("passes promtool's check", async () => {
    const { body } = await scrape(`${server.url}/metrics`, TOKEN);
    const { code, output } = await promtoolCheck(body);
    expect(output).toBe("");
    expect(code).toBe(0);
  });
});

describe("/metrics on a port of its own", () => {
  let server: RunningServer;
  let metricsPort: number;

  beforeAll(async () => {
    metricsPort = await freePort();
    server = await startServer({ env: { METRICS_PORT: String(metricsPort) } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("is served there, and the app's port answers /metrics as any unknown path", async () => {
    const app = await scrape(`${server.url}/metrics`);
    const unknown = await scrape(`${server.url}/no-such-path`);
    expect(app.response.status).toBe(unknown.response.status);
    // A visitor is sent to log in, back to the path asked for.
    const back = (path: string) => unknown.response.headers.get("location")?.replace("no-such-path", path);
    expect(app.response.headers.get("location")).toBe(back("metrics"));
    expect(app.body).not.toContain("memberhall_");
    const own = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(own.response.status).toBe(200);
    expect(own.body).toContain("# TYPE memberhall_http_request_duration_seconds histogram");
    expect((await scrape(`http://127.0.0.1:${metricsPort}/`)).response.status).toBe(404);
  });
});
