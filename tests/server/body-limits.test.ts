import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMPORT_TOO_LARGE } from "~/domain/member-import";
import { logInAs, startServer, type RunningServer } from "../helpers/server";

type Raw = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** Posts `chunks` one by one with chunked transfer encoding: no Content-Length is sent. */
function postChunked(server: RunningServer, path: string, contentType: string, chunks: Buffer[]) {
  return new Promise<Raw>((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        path,
        method: "POST",
        headers: { "content-type": contentType, "transfer-encoding": "chunked", origin: server.url },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      },
    );
    // The server may answer and close before every chunk is sent; the answer is what counts.
    request.on("error", (error) => {
      if ((error as NodeJS.ErrnoException).code !== "EPIPE" && (error as NodeJS.ErrnoException).code !== "ECONNRESET")
        reject(error);
    });
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

describe("the size of a request body", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("lets a normal login through", async () => {
    const response = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ login: "member", password: "memberhall-demo" }),
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.getSetCookie().some((c) => c.startsWith("mh_session="))).toBe(true);
  });

  it("refuses a 200 kB form post to /login with 413 before reading it", async () => {
    const response = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ login: "member", password: "memberhall-demo", filler: "x".repeat(200 * 1024) }),
      redirect: "manual",
    });
    expect(response.status).toBe(413);
    expect(await response.text()).toMatch(/too large/i);
  });

  it("refuses a chunked form body without Content-Length once it passes the cap", async () => {
    const chunks = Array.from({ length: 20 }, () => Buffer.from(`a=${"x".repeat(10 * 1024)}&`));
    const response = await postChunked(server, "/login", "application/x-www-form-urlencoded", chunks);
    expect(response.status).toBe(413);
  });

  it("still reads a small chunked form body", async () => {
    const body = Buffer.from(new URLSearchParams({ login: "member", password: "memberhall-demo" }).toString());
    const response = await postChunked(server, "/login", "application/x-www-form-urlencoded", [body]);
    expect(response.status).toBe(302);
  });

  it("refuses a 2 MB JSON body to the API with 413 and a JSON error", async () => {
    const response = await fetch(`${server.url}/api/entry/cognito-submitted`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify({ filler: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/too large/i) });
  });

  it("refuses a chunked JSON body past 1 MB", async () => {
    const chunks = Array.from({ length: 12 }, () => Buffer.from("x".repeat(100 * 1024)));
    const response = await postChunked(server, "/api/entry/cognito-submitted", "application/json", chunks);
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toEqual({ error: expect.stringMatching(/too large/i) });
  });
});

/** Declares a body of `length` bytes, sends its first bytes only, and waits for the answer. */
function postDeclared(server: RunningServer, path: string, cookie: string, length: number) {
  return new Promise<Raw>((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        path,
        method: "POST",
        headers: {
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(length),
          origin: server.url,
          cookie,
        },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => {
          request.destroy();
          resolve({ status: response.statusCode!, headers: response.headers, body });
        });
      },
    );
    request.on("error", reject);
    request.write("--x\r\n");
  });
}

describe("a members import's upload", () => {
  let server: RunningServer;
  let cookie: string;

  beforeAll(async () => {
    server = await startServer();
    cookie = await logInAs(server.url, "admin");
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("takes a CSV file past the forms' limit through the server, streamed to its dry run", async () => {
    const lines = ["email,name", ...Array.from({ length: 3_000 }, (_, i) => `upload${i}@example.org,Uploaded ${i}`)];
    const file = new Blob([lines.join("\n")], { type: "text/csv" });
    expect(file.size).toBeGreaterThan(64 * 1024);
    const form = new FormData();
    form.set("file", file, "upload.csv");
    const response = await fetch(`${server.url}/members/import`, {
      method: "POST",
      body: form,
      headers: { origin: server.url, cookie },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    const page = await fetch(`${server.url}${response.headers.get("location")}`, { headers: { cookie } });
    // React separates the sentence's parts with empty comments.
    expect((await page.text()).replaceAll("<!-- -->", "")).toContain(
      "3,000 rows: 3,000 new members, 0 updates, 0 skipped.",
    );
  });

  it("refuses a file past 50 MB before reading it, naming the limit", async () => {
    const answer = await postDeclared(server, "/members/import", cookie, 51 * 1024 * 1024);
    expect(answer.status).toBe(413);
    expect(answer.body).toBe(IMPORT_TOO_LARGE);
  });
});

/** Sends the headers and the first bytes of a body that says it is longer, and waits for an answer. */
function postUnfinished(server: RunningServer, path: string, waitMs: number) {
  return new Promise<Raw | "no answer">((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: server.port,
        path,
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "content-length": "4000", origin: server.url },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => {
          clearTimeout(timer);
          request.destroy();
          resolve({ status: response.statusCode!, headers: response.headers, body });
        });
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      resolve("no answer");
    }, waitMs);
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.write("login=member&password=");
  });
}

describe("the sign-in rate limits and the body", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ env: { AUTH_RATE_LIMIT: "1" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(["/login", "/signup", "/login/help"])(
    "refuses %s past the address's limit without waiting for the body",
    async (path) => {
      // The first request from the address is within the limit; it is refused for its content.
      await fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { origin: server.url },
        body: new URLSearchParams({ login: "nobody" }),
        redirect: "manual",
      });
      const answer = await postUnfinished(server, path, 3_000);
      expect(answer).not.toBe("no answer");
      expect((answer as Raw).status).toBe(429);
      expect(Number((answer as Raw).headers["retry-after"])).toBeGreaterThan(0);
    },
  );
});
