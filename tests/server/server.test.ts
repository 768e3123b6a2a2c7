import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { causes } from "~/db/schema";
import {
  freePort,
  removeMadeDataDirs,
  runServerToExit,
  startServer,
  tempDataDir,
  type RunningServer,
  START_WITHIN_MS,
} from "../helpers/server";

// The data directories the tests below make for servers of their own.
afterAll(removeMadeDataDirs);

describe("the production server", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ env: { LRM_URL: "https://learn.example.org/courses" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("serves the home page as HTML with a language", async () => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toMatch(/<html lang="en">/);
  });

  it("sends a CSP whose per-request nonce is the one on the page's scripts", async () => {
    const first = await fetch(`${server.url}/`);
    const csp = first.headers.get("content-security-policy") ?? "";
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    const html = await first.text();
    const scriptNonces = [...html.matchAll(/<script[^>]*nonce="([^"]+)"/g)].map((m) => m[1]);
    expect(scriptNonces.length).toBeGreaterThan(0);
    expect(new Set(scriptNonces)).toEqual(new Set([nonce]));

    const second = await fetch(`${server.url}/`);
    expect(second.headers.get("content-security-policy")).not.toContain(nonce!);
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) {
      expect(csp).toContain(directive);
    }
  });

  it("sends the security headers on every response, HSTS only in production", async () => {
    for (const pathname of ["/", "/api/config", "/healthz", "/no-such-page"]) {
      const response = await fetch(`${server.url}${pathname}`);
      expect(response.headers.get("x-content-type-options"), pathname).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), pathname).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("content-security-policy"), pathname).toContain("object-src 'none'");
      expect(response.headers.get("strict-transport-security"), pathname).toBeNull();
      expect(response.headers.get("x-powered-by"), pathname).toBeNull();
    }
  });

  it("lets only the learning site frame the embed and lrm pages", async () => {
    const embed = await fetch(`${server.url}/embed/nols`);
    expect(embed.headers.get("content-security-policy")).toContain("frame-ancestors https://learn.example.org");
    expect(embed.headers.get("x-frame-options")).toBeNull();
    const other = await fetch(`${server.url}/`);
    expect(other.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(other.headers.get("x-frame-options")).toBe("DENY");
  });

  it("gives every response a request id, keeping a well-formed one the client sent", async () => {
    const generated = await fetch(`${server.url}/api/config`);
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${server.url}/api/config`, { headers: { "x-request-id": "trace-123" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-123");
    const replaced = await fetch(`${server.url}/api/config`, { headers: { "x-request-id": "bad id\twith spaces" } });
    expect(replaced.headers.get("x-request-id")).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    // The request's log line is written as its response ends, and reaches the pipe a moment later.
    await expect.poll(() => server.output()).toContain('"id":"trace-123"');
    const line = server
      .output()
      .split("\n")
      .find((text) => text.includes('"id":"trace-123"'));
    expect(JSON.parse(line ?? "{}")).toMatchObject({
      msg: "request completed",
      level: 30,
      req: { id: "trace-123", method: "GET", url: "/api/config" },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
  });

  it("reports health with the database", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true, db: "ok" });
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("serves the compiled assets with long immutable caching", async () => {
    const html = await (await fetch(`${server.url}/`)).text();
    const asset = /href="(\/build\/[^"]+\.css)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    const response = await fetch(`${server.url}${asset}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("answers an unknown page with the 404 page", async () => {
    const response = await fetch(`${server.url}/terms-of-service/no-such-page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain("This page could not be found");
    expect(html).toContain("Back to the home page");
  });

  it("answers a missing asset with a plain 404, not with a page or a redirect", async () => {
    const response = await fetch(`${server.url}/build/routes/no-such-chunk.js`, { redirect: "manual" });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("This page could not be found");
  });

  it("sends a page in one piece: its length in the headers, not in chunks", async () => {
    const { headers, body } = await new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>(
      (resolve, reject) => {
        http
          .get(`${server.url}/login`, (response) => {
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
          })
          .on("error", reject);
      },
    );
    expect(headers["transfer-encoding"]).toBeUndefined();
    expect(Number(headers["content-length"])).toBe(body.byteLength);
    expect(body.toString()).toContain("</html>");
  });

  it("compresses what it sends when the client accepts it", async () => {
    const response = await fetch(`${server.url}/api/schema`, { headers: { "accept-encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
  });
});

describe("starting and stopping", () => {
  it("stops with one line naming PORT when PORT=abc", async () => {
    const result = await runServerToExit({ PORT: "abc" });
    expect(result.code).not.toBe(0);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("PORT");
    expect(lines[0]).toContain('"abc"');
  });

  it("refuses to start in production without its secrets", async () => {
    const result = await runServerToExit({ NODE_ENV: "production" });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("SESSION_SECRET is required when NODE_ENV=production");
  });

  // Two starts, the first of them making the embedded database: each may take a minute under load.
  it("keeps data, secrets and the seed across a restart, and seeds only once", async () => {
    const dataDir = tempDataDir();
    const first = await startServer({ dataDir });
    const key = (await (await fetch(`${first.url}/api/config`)).json()).statePublicKey;
    expect(first.output()).toContain("seeded the demo community");
    expect(first.output()).toContain(
      "Demo logins: admin (admin), creator (NoL creator), tester (NoL tester), member (member), newbie",
    );
    expect(await first.stop()).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');
    expect(existsSync(path.join(dataDir, "pgdata.lock"))).toBe(false);

    const db = await openDatabase({ driver: "pglite", dir: path.join(dataDir, "pgdata") });
    await db.db.insert(causes).values({ code: "RS", label: "Restart survivor", name: "Restart Survivor" });
    await db.close();

    const second = await startServer({ dataDir });
    try {
      expect(second.output()).not.toContain("seeded the demo community");
      const catalogue = await (await fetch(`${second.url}/api/config/causes`)).json();
      expect(catalogue.causes.RS).toEqual({ label: "Restart survivor", name: "Restart Survivor" });
      expect(catalogue.causes.TS).toBeDefined();
      expect((await (await fetch(`${second.url}/api/config`)).json()).statePublicKey).toBe(key);
    } finally {
      await second.stop();
    }
    const check = await openDatabase({ driver: "pglite", dir: path.join(dataDir, "pgdata") });
    expect(await check.db.select().from(causes).where(eq(causes.code, "RS"))).toHaveLength(1);
    await check.close();
  }, 240_000);

  it("does not seed demo members in production unless SEED_DEMO is set", async () => {
    const production = {
      NODE_ENV: "production",
      DEMO: "0",
      BASE_URL: "https://members.example.org",
      SESSION_SECRET: "a".repeat(40),
      STATE_SECRET: "b".repeat(40),
      STATE_PRIVATE_KEY: "c".repeat(64),
    };
    const server = await startServer({ env: production });
    try {
      expect(server.output()).not.toContain("Demo logins");
      const response = await fetch(`${server.url}/`);
      await response.text();
      expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      expect(response.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    } finally {
      await server.stop();
    }
  });

  it("on SIGTERM finishes what is in flight, closes open connections after the timeout and exits 0", async () => {
    const server = await startServer({ env: { SHUTDOWN_TIMEOUT_MS: "1500" } });
    // A client that has started a request and not finished it keeps its connection open.
    const socket = net.connect(server.port, "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("GET / HTTP/1.1\r\nHost: localhost\r\n");
    socket.on("error", () => {});
    const started = Date.now();
    const code = await server.stop("SIGTERM");
    const elapsed = Date.now() - started;
    expect(code).toBe(0);
    expect(elapsed).toBeGreaterThanOrEqual(1_000);
    expect(server.output()).toContain("shutting down");
    expect(server.output()).toContain("requests still open after the shutdown timeout");
    socket.destroy();
  });

  it("stops at once on SIGINT when nothing is in flight", async () => {
    const server = await startServer();
    await fetch(`${server.url}/healthz`);
    expect(await server.stop("SIGINT")).toBe(0);
    expect(server.output()).not.toContain("requests still open");
  });
});

describe("a bare remix-serve run", () => {
  it("boots the services and the job runner from the environment and serves the API", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ["node_modules/@remix-run/serve/dist/cli.js", "build/index.js"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: {
        NODE_ENV: "production",
        PATH: process.env.PATH ?? "",
        PORT: String(port),
        DATA_DIR: tempDataDir(),
        SEED_DEMO: "1",
        BASE_URL: "http://localhost",
        SESSION_SECRET: "a".repeat(40),
        STATE_SECRET: "b".repeat(40),
        STATE_PRIVATE_KEY: "c".repeat(64),
      } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await expect.poll(() => output, { timeout: 30_000 }).toContain(`${port}`);
      const response = await fetch(`http://127.0.0.1:${port}/api/config/causes`);
      expect(response.status).toBe(200);
      expect((await response.json()).causes.TS).toBeDefined();
      // The services boot at the first request, with the job runner.
      await expect.poll(() => output, { timeout: 30_000 }).toContain("job runner started");
      // SIGTERM stops the runner and the database as well as the HTTP server, so the process ends.
      child.kill("SIGTERM");
      const code = await Promise.race([
        exited,
        new Promise((resolve) => setTimeout(() => resolve("still running"), 20_000)),
      ]);
      expect(code, output).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});

describe("npm start", () => {
  it("serves React's production build in the demo's mode: demo logins, no deployment settings to give", async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: {
        PATH: process.env.PATH ?? "",
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: tempDataDir(),
        // No NODE_ENV, as on a fresh shell: start.mjs chooses it.
      } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      // A first start: the embedded database is made, then opened.
      await expect.poll(() => output, { timeout: START_WITHIN_MS, interval: 200 }).toContain("is listening on");
      // A person at a terminal reads short lines and a banner, not JSON.
      const listening = output.split("\n").find((line) => line.includes("is listening on"))!;
      expect(listening).toMatch(
        /^\d\d:\d\d:\d\d INFO {2}memberhall is listening on \S+ .*nodeEnv=production demo=true/,
      );
      await expect.poll(() => output, { timeout: 10_000 }).toContain("memberhall is running at");
      expect(output).toMatch(/Log in as admin \(admin\), .*member/);
      expect(output).toContain("Password: memberhall-demo");
      expect(output).toContain("/db/mail_outbox");
      expect(output).toContain("npm run demo:reset");
      // The first start says what it is doing while it makes the database, in order.
      const steps = [
        "first start: making the embedded database (about half a minute",
        "making the embedded database: creating its files",
        "making the embedded database: applying the migrations",
        "making the embedded database: adding the document templates",
        "making the embedded database: seeding the demo community",
        "the embedded database is made, in ",
        "is listening on",
      ];
      const at = steps.map((step) => output.indexOf(step));
      expect(
        at.every((index) => index >= 0),
        output,
      ).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      const url = `http://127.0.0.1:${port}`;
      const login = await fetch(`${url}/login`, {
        method: "POST",
        headers: { origin: url },
        body: new URLSearchParams({ login: "member", password: "memberhall-demo" }),
        redirect: "manual",
      });
      await login.arrayBuffer();
      expect(login.status).toBe(302);
      const cookie = login.headers.getSetCookie().find((c) => c.startsWith("mh_session="));
      // Plain-HTTP cookies on localhost: the deployment's __Host- prefix and Secure stay off.
      expect(cookie).toBeDefined();
      expect(cookie).not.toContain("Secure");

      // The terminal logs pages, API calls and errors, not each file a page loads; and as the
      // lines scroll the banner away, the address and logins come back every hundred lines.
      const script = /\/build\/[\w./-]+\.js/.exec(await (await fetch(`${url}/login`)).text())![0];
      for (const file of ["/favicon.ico", "/robots.txt", script]) {
        const response = await fetch(`${url}${file}`);
        await response.arrayBuffer();
        expect(response.status, file).toBe(200);
      }
      for (let i = 0; i < 100; i += 1) await (await fetch(`${url}/api/config`)).arrayBuffer();
      await expect.poll(() => output.split("memberhall is running at").length - 1, { timeout: 10_000 }).toBe(2);
      expect(output).toContain('"method":"POST","url":"/login"');
      expect(output).toContain('"method":"GET","url":"/api/config"');
      expect(output).toContain('"method":"GET","url":"/login"');
      expect(output).not.toContain('"url":"/favicon.ico"');
      expect(output).not.toContain('"url":"/robots.txt"');
      expect(output).not.toMatch(/"url":"\/build\//);
      const reminder = output.slice(output.lastIndexOf("memberhall is running at"));
      expect(reminder).toMatch(
        /^memberhall is running at http:\/\/\S+\n {2}Log in as admin \(admin\), .*; password: memberhall-demo\n/,
      );
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
  }, 240_000);
});
