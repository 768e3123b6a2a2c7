import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../helpers/server";

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A request whose path goes out byte for byte: fetch would resolve `%2e%2e` itself. */
function raw(server: RunningServer, path: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<Raw>((resolve, reject) => {
    const request = http.request(
      { host: "127.0.0.1", port: server.port, path, method: options.method ?? "GET", headers: options.headers },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      },
    );
    request.on("error", reject);
    request.end();
  });
}

describe("the server's answers to odd requests", () => {
  let server: RunningServer;
  let memberCookie = "";

  beforeAll(async () => {
    server = await startServer({ env: { LRM_URL: "https://learn.example.org" } });
    const response = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ login: "member", password: "memberhall-demo" }),
      redirect: "manual",
    });
    memberCookie = response.headers
      .getSetCookie()
      .find((c) => c.startsWith("mh_session="))!
      .split(";")[0]!;
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(["/%5C", "/%5c", "/%", "/%E0%A4%A", "//x", "/..%2f", "/%5C%5Cevil.example"])(
    "answers GET %s for a signed-in member with the 404 page",
    async (path) => {
      const response = await raw(server, path, { headers: { cookie: memberCookie } });
      expect(response.status).toBe(404);
      expect(response.body).toContain("This page could not be found");
      expect(response.body).not.toContain("URIError");
    },
  );

  it("answers an odd API path with the API's JSON 404", async () => {
    const response = await raw(server, "/api/%E0%A4%A", { headers: { cookie: memberCookie } });
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toEqual({ error: "Unknown api" });
  });

  it("decides framing on the page a path names, not on how it is spelled", async () => {
    for (const path of ["/embed/%2e%2e/login", "/embed/..%2flogin", "/lrm/%2E%2E/profile"]) {
      const response = await raw(server, path);
      expect(response.headers["x-frame-options"], path).toBe("DENY");
      expect(response.headers["content-security-policy"], path).toContain("frame-ancestors 'none'");
    }
    const embed = await raw(server, "/embed/./nols");
    expect(embed.headers["x-frame-options"]).toBeUndefined();
    expect(embed.headers["content-security-policy"]).toContain("frame-ancestors https://learn.example.org");
    const notarized = await raw(server, "/notary/sandbox/ot_sb_AAAAAAAAAAAAAAAAAAAAAA/document");
    expect(notarized.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(notarized.headers["content-security-policy"]).toContain("frame-ancestors 'self'");
    const signerPage = await raw(server, "/notary/sandbox/ot_sb_AAAAAAAAAAAAAAAAAAAAAA");
    expect(signerPage.headers["x-frame-options"]).toBe("DENY");
  });

  describe("a write that does not say where it comes from", () => {
    const login = async () => {
      const response = await fetch(`${server.url}/login`, {
        method: "POST",
        headers: { origin: server.url },
        body: new URLSearchParams({ login: "creator", password: "memberhall-demo" }),
        redirect: "manual",
      });
      return response.headers
        .getSetCookie()
        .find((c) => c.startsWith("mh_session="))!
        .split(";")[0]!;
    };
    const logout = (cookie: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/logout`, { method: "POST", headers: { cookie, ...headers }, redirect: "manual" });
    const signedIn = async (cookie: string) =>
      (await fetch(`${server.url}/profile`, { headers: { cookie }, redirect: "manual" })).status === 200;

    it("is refused without Origin or Referer, and the session survives", async () => {
      const cookie = await login();
      const response = await logout(cookie);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: "Requests from other sites cannot change anything here" });
      expect(await signedIn(cookie)).toBe(true);
      expect((await logout(cookie, { referer: "https://evil.example/" })).status).toBe(403);
      expect(await signedIn(cookie)).toBe(true);
    });

    it("is taken with this site's Referer when the browser sends no Origin", async () => {
      const cookie = await login();
      expect((await logout(cookie, { referer: `${server.url}/profile` })).status).toBe(302);
      expect(await signedIn(cookie)).toBe(false);
    });

    it("is not asked of state-header calls and provider webhooks", async () => {
      const signed = await fetch(`${server.url}/api/creator/auth`, {
        method: "POST",
        headers: { state: "x", "state-hash": "0".repeat(64), "state-sig": "0".repeat(64) },
      });
      expect(signed.status).toBe(401);
      const webhook = await fetch(`${server.url}/api/forms/cognito/not-the-secret/submit`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(webhook.status).toBe(404);
    });
  });

  describe("requests a browser never sends", () => {
    it.each(["bytes=99999999999-", "bytes=5-1", "bytes=-0"])(
      "answers a static file's unsatisfiable Range %s with 416 and the file's length",
      async (range) => {
        const script = (await (await fetch(`${server.url}/login`)).text()).match(/\/build\/[\w./-]+\.js/)?.[0];
        expect(script).toBeDefined();
        for (const path of ["/favicon.svg", script!]) {
          const response = await raw(server, path, { headers: { range: range } });
          expect(response.status, path).toBe(416);
          expect(response.headers["content-range"], path).toMatch(/^bytes \*\/\d+$/);
        }
      },
    );

    it("still serves a satisfiable Range of a static file", async () => {
      const response = await raw(server, "/favicon.svg", { headers: { range: "bytes=0-9" } });
      expect(response.status).toBe(206);
      expect(response.body).toHaveLength(10);
    });

    it.each([
      ["another host's absolute form", "http://other.example/"],
      ["the asterisk form", "*"],
      ["an absolute form of another scheme", "ftp://127.0.0.1/"],
    ])("refuses %s as the request target with 400", async (_what, target) => {
      const response = await raw(server, target);
      expect(response.status).toBe(400);
      expect(response.body).toBe("The request target must be a path on this site.");
    });

    it("answers the absolute form naming this host with the page it names", async () => {
      const response = await raw(server, `http://127.0.0.1:${server.port}/login`);
      expect(response.status).toBe(200);
      expect(response.body).toContain("<form");
    });

    it("answers an admin's export of an entity with a very long name with the 404 page", async () => {
      const admin = (
        await fetch(`${server.url}/login`, {
          method: "POST",
          headers: { origin: server.url },
          body: new URLSearchParams({ login: "admin", password: "memberhall-demo" }),
          redirect: "manual",
        })
      ).headers
        .getSetCookie()
        .find((c) => c.startsWith("mh_session="))!
        .split(";")[0]!;
      for (const name of ["x".repeat(3_000), "x".repeat(41), "no_such_entity"]) {
        const response = await raw(server, `/db/${name}/export.csv`, { headers: { cookie: admin } });
        expect(response.status, name.slice(0, 50)).toBe(404);
        expect(response.body).toContain("This page could not be found");
      }
    });
  });

  describe("what crawlers ask for", () => {
    it("serves robots.txt as a file that keeps crawlers to the public pages", async () => {
      const response = await fetch(`${server.url}/robots.txt`, { redirect: "manual" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/plain");
      const lines = (await response.text()).split("\n");
      expect(lines).toContain("User-agent: *");
      for (const path of ["/$", "/login", "/signup", "/terms-of-service", "/privacy-policy", "/c/", "/g/"]) {
        expect(lines).toContain(`Allow: ${path}`);
      }
      expect(lines).toContain("Disallow: /");
    });

    it("serves favicon.ico as an icon", async () => {
      const response = await fetch(`${server.url}/favicon.ico`, { redirect: "manual" });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
      expect([...new Uint8Array(await response.arrayBuffer()).slice(0, 4)]).toEqual([0, 0, 1, 0]);
    });

    it.each(["/", "/login", "/signup", "/terms-of-service", "/privacy-policy"])(
      "gives %s a meta description",
      async (path) => {
        const html = await (await fetch(`${server.url}${path}`)).text();
        const descriptions = [...html.matchAll(/<meta name="description" content="([^"]*)"/g)].map((m) => m[1]);
        expect(descriptions).toHaveLength(1);
        expect(descriptions[0]!.length).toBeGreaterThan(20);
      },
    );
  });

  describe("caching of what depends on the session", () => {
    const noStore = (headers: Headers) => {
      expect(headers.get("cache-control")).toBe("no-store");
      expect(headers.get("vary")).toMatch(/\bCookie\b/i);
    };

    it.each(["/", "/profile", "/terms-of-service", "/profile?_data=root", "/api/entry/nol-editors", "/no-such-page"])(
      "keeps the answer to GET %s for a signed-in member out of every cache",
      async (path) => {
        const response = await fetch(`${server.url}${path}`, { headers: { cookie: memberCookie }, redirect: "manual" });
        await response.arrayBuffer();
        noStore(response.headers);
      },
    );

    it("keeps an answer that sets or ends the session out of every cache", async () => {
      const login = await fetch(`${server.url}/login`, {
        method: "POST",
        headers: { origin: server.url },
        body: new URLSearchParams({ login: "admin", password: "memberhall-demo" }),
        redirect: "manual",
      });
      const cookie = login.headers
        .getSetCookie()
        .find((c) => c.startsWith("mh_session="))!
        .split(";")[0]!;
      noStore(login.headers);
      const logout = await fetch(`${server.url}/logout`, {
        method: "POST",
        headers: { origin: server.url, cookie },
        redirect: "manual",
      });
      expect(logout.headers.getSetCookie().some((c) => c.startsWith("mh_session="))).toBe(true);
      noStore(logout.headers);
    });

    it("keeps an answer to a state-header call out of every cache", async () => {
      const response = await fetch(`${server.url}/api/config`, {
        headers: { state: "x", "state-hash": "0".repeat(64), "state-sig": "0".repeat(64) },
      });
      await response.arrayBuffer();
      noStore(response.headers);
    });

    it("lets the compiled assets be cached for a signed-in member too", async () => {
      const html = await (await fetch(`${server.url}/`, { headers: { cookie: memberCookie } })).text();
      const asset = /href="(\/build\/[^"]+\.css)"/.exec(html)?.[1];
      const response = await fetch(`${server.url}${asset}`, { headers: { cookie: memberCookie } });
      await response.arrayBuffer();
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const icon = await fetch(`${server.url}/favicon.ico`, { headers: { cookie: memberCookie } });
      await icon.arrayBuffer();
      expect(icon.headers.get("cache-control")).toBe("public, max-age=3600");
    });

    it("lets the browser keep the public configuration, signed in or not, and revalidate it by its ETag", async () => {
      for (const headers of [{}, { cookie: memberCookie }] as Record<string, string>[]) {
        const response = await fetch(`${server.url}/api/config`, { headers });
        await response.arrayBuffer();
        expect(response.headers.get("cache-control")).toBe("public, max-age=60");
        const etag = response.headers.get("etag");
        expect(etag).toMatch(/^"[\w-]{22}"$/);
        const again = await fetch(`${server.url}/api/config`, { headers: { ...headers, "if-none-match": etag! } });
        expect(again.status).toBe(304);
        expect(await again.text()).toBe("");
      }
    });

    it("lets a visitor's public page be cached by the browser as before", async () => {
      const response = await fetch(`${server.url}/api/schema`);
      await response.arrayBuffer();
      expect(response.headers.get("cache-control")).toBe("public, max-age=300");
    });
  });
});

describe("a missing compiled asset", () => {
  const production = {
    NODE_ENV: "production",
    DEMO: "0",
    BASE_URL: "https://members.example.org",
    SESSION_SECRET: "a".repeat(40),
    STATE_SECRET: "b".repeat(40),
    STATE_PRIVATE_KEY: "c".repeat(64),
  };

  it.each([
    ["development", { NODE_ENV: "development" }],
    ["production", production],
  ])("answers a plain 404 that names no file on the server, with NODE_ENV=%s", async (_mode, env) => {
    const server = await startServer({ env });
    try {
      for (const path of ["/build/nothing.js", "/build/routes/no-such-chunk.js", "/build/%2e%2e/index.js"]) {
        const response = await raw(server, path);
        expect(response.status, path).toBe(404);
        expect(response.headers["content-type"], path).toContain("text/plain");
        expect(response.body, path).toBe("Not found");
      }
    } finally {
      await server.stop();
    }
  });
});
