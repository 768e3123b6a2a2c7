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
  });
});
