import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../helpers/db";
import { relay } from "../helpers/relay";
import { startServer, type RunningServer } from "../helpers/server";

const FRIENDLY = "The service is briefly unavailable. Please try again in a minute.";

describe.runIf(process.env.TEST_DATABASE_URL)("a database outage", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: ReturnType<typeof relay>;
  let server: RunningServer;
  let cookie = "";

  const login = () =>
    fetch(`${server.url}/login`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ login: "creator", password: "memberhall-demo" }),
      redirect: "manual",
    });

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const target = new URL(database.url);
    proxy = relay({ host: target.hostname, port: Number(target.port || 5432) });
    const port = await proxy.open();
    const viaProxy = new URL(database.url);
    viaProxy.host = `127.0.0.1:${port}`;
    server = await startServer({ env: { DATABASE_URL: viaProxy.toString() } });
    const response = await login();
    cookie = response.headers
      .getSetCookie()
      .find((c) => c.startsWith("mh_session="))!
      .split(";")[0]!;
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await database?.drop();
  });

  // A page that reads the database on every request (the server keeps the viewer and the
  // catalogue, not the state of the member's data archive), and is never kept as rendered.
  const READING_PAGE = "/profile";

  it("answers a signed-in page and a login with 503, Retry-After and the friendly page, then 200 again", async () => {
    expect((await fetch(`${server.url}${READING_PAGE}`, { headers: { cookie } })).status).toBe(200);

    await proxy.close();
    const page = await fetch(`${server.url}${READING_PAGE}`, { headers: { cookie } });
    expect(page.status).toBe(503);
    expect(page.headers.get("retry-after")).toBe("30");
    expect(await page.text()).toContain(FRIENDLY);

    // A visitor's page needs no query: it is answered whole, its scripts allowed by the
    // answer's own nonce.
    const visitor = await fetch(`${server.url}/signup/terms`);
    expect(visitor.status).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(visitor.headers.get("content-security-policy") ?? "")?.[1];
    const scripts = [...(await visitor.text()).matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    expect(new Set(scripts)).toEqual(new Set([nonce]));

    const refused = await login();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    expect(await refused.text()).toContain(FRIENDLY);

    await proxy.open();
    expect((await fetch(`${server.url}${READING_PAGE}`, { headers: { cookie } })).status).toBe(200);
    expect(server.process.exitCode).toBeNull();
  });
});
