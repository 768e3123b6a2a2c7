import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withinOneMinute } from "../helpers/minute";
import { startServer, type RunningServer } from "../helpers/server";

const SITE = "members.example.test";
const ORIGIN = `https://${SITE}`;

/**
 * The built server as a TLS proxy on the same host reaches it (TRUST_PROXY=loopback, as
 * deploy/memberhall.env.example sets it): the public host and scheme come in X-Forwarded-*,
 * and the client's address is the last one the proxy appended to X-Forwarded-For.
 */
describe("the server behind a TLS proxy", () => {
  let server: RunningServer;
  let plain: RunningServer;

  const proxied = (
    path: string,
    init: { client: string; method?: string; headers?: Record<string, string>; body?: URLSearchParams },
  ) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? "GET",
      redirect: "manual",
      body: init.body,
      headers: {
        // A client's own X-Forwarded-For, which the proxy appends its peer's address to.
        "x-forwarded-for": `6.6.6.6, ${init.client}`,
        "x-forwarded-proto": "https",
        "x-forwarded-host": SITE,
        ...init.headers,
      },
    });
  const login = (login: string, client: string, password = "memberhall-demo") =>
    proxied("/login", {
      client,
      method: "POST",
      headers: { origin: ORIGIN },
      body: new URLSearchParams({ login, password }),
    });
  const cookieOf = (response: Response, name: string) =>
    response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));

  beforeAll(async () => {
    [server, plain] = await Promise.all([
      startServer({ env: { TRUST_PROXY: "loopback", BASE_URL: ORIGIN, AUTH_RATE_LIMIT: "4" } }),
      startServer(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), plain?.stop()]);
  });

  it("marks every cookie Secure, the flash's too, and sends HSTS over HTTPS", async () => {
    const response = await login("member", "198.51.100.20");
    expect(response.status).toBe(302);
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    const session = cookieOf(response, "mh_session");
    expect(session).toMatch(/; Secure/);

    const ended = await proxied("/profile/security", {
      client: "198.51.100.20",
      method: "POST",
      headers: { origin: ORIGIN, cookie: session!.split(";")[0]! },
      body: new URLSearchParams({ intent: "end-other-sessions" }),
    });
    expect(ended.status).toBe(302);
    const flash = cookieOf(ended, "mh_flash");
    expect(flash).toBeDefined();
    expect(flash).toMatch(/; Secure/);
  });

  it("sends no HSTS to a request that came over plain HTTP", async () => {
    const response = await fetch(`${plain.url}/login`);
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("records in the audit log the address the proxy saw, not the client's own claim nor the proxy's", async () => {
    expect((await login("creator", "198.51.100.31")).status).toBe(302);
    const admin = cookieOf(await login("admin", "198.51.100.32"), "mh_session")!.split(";")[0]!;
    const log = await proxied("/db/audit_log", { client: "198.51.100.32", headers: { cookie: admin } });
    const page = await log.text();
    expect(log.status).toBe(200);
    expect(page).toContain("198.51.100.31");
    expect(page).not.toContain("6.6.6.6");
  });

  it("counts login attempts per client address behind the proxy", async () => {
    await withinOneMinute(20);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await login("member", "198.51.100.41", "not the password");
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 4).every((status) => status === 400 || status === 401)).toBe(true);
    expect(statuses[4]).toBe(429);
    const other = await login("member", "198.51.100.42", "not the password");
    await other.arrayBuffer();
    expect(other.status).not.toBe(429);
  });

  it.each([
    ["a trusted proxy", () => server, ORIGIN, { "x-forwarded-proto": "https", "x-forwarded-for": "198.51.100.50" }],
    ["no proxy", () => plain, undefined, {}],
  ] as const)(
    "refuses with 403 a form post whose X-Forwarded-Host is not its Origin, from %s",
    async (_from, which, origin, headers) => {
      const target = which();
      const response = await fetch(`${target.url}/login`, {
        method: "POST",
        redirect: "manual",
        headers: { ...headers, origin: origin ?? target.url, "x-forwarded-host": "evil.example" },
        body: new URLSearchParams({ login: "member", password: "memberhall-demo" }),
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: "Requests from other sites cannot change anything here" });
    },
  );

  it("takes a form post whose X-Forwarded-Host and Origin are both this site's, with no proxy", async () => {
    const host = new URL(plain.url).host;
    const response = await fetch(`${plain.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: plain.url, "x-forwarded-host": host },
      body: new URLSearchParams({ login: "member", password: "memberhall-demo" }),
    });
    await response.arrayBuffer();
    expect(response.status).toBe(302);
  });
});
