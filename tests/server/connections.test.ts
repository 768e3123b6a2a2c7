import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * What reaches the server below the router: methods the Fetch API cannot carry, and a
 * keep-alive connection whose previous request was answered before its body was read.
 */
type Answer = { status: number; body: string; type: string | undefined; reused: boolean };

describe("requests below the router", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** One request on the given agent; it fails if no answer comes within 10 s. */
  const send = (agent: http.Agent, method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const request = http.request(
        { host: "127.0.0.1", port: server.port, method, path, agent, headers: { origin: server.url, ...headers } },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (text += chunk));
          response.on("end", () =>
            resolve({
              status: response.statusCode!,
              body: text,
              type: response.headers["content-type"],
              reused: request.reusedSocket,
            }),
          );
        },
      );
      request.setTimeout(10_000, () => request.destroy(new Error(`${method} ${path}: no answer within 10 s`)));
      request.on("error", reject);
      request.end(body);
    });

  it("answers TRACE with 501 and says why, on pages and in the API", async () => {
    const method = "TRACE";
    const agent = new http.Agent();
    const page = await send(agent, method, "/");
    expect(page.status).toBe(501);
    expect(page.body).toMatch(/does not take that HTTP method/);
    const api = await send(agent, method, "/api/config");
    expect(api.status).toBe(501);
    expect(api.type).toContain("application/json");
    expect(JSON.parse(api.body)).toEqual({ error: "This site does not take that HTTP method" });
    agent.destroy();
    expect(server.output()).not.toMatch(/HTTP method is unsupported/);
  });

  it("answers CONNECT with 501 and closes the connection", async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request({ host: "127.0.0.1", port: server.port, method: "CONNECT", path: "127.0.0.1:1" });
      request.on("connect", (response, socket) => {
        let body = "";
        socket.on("data", (chunk: Buffer) => (body += chunk.toString()));
        socket.on("end", () => resolve({ status: response.statusCode!, body }));
      });
      request.on("response", (response) => resolve({ status: response.statusCode!, body: "" }));
      request.setTimeout(10_000, () => request.destroy(new Error("CONNECT: no answer within 10 s")));
      request.on("error", reject);
      request.end();
    });
    expect(answer.status).toBe(501);
  });

  it.each([
    ["a 405 from a read-only API call", "/api/config", "application/json", 200_000],
    ["a refusal of the error reports", "/api/errors", "application/json", 200_000],
    ["a 405 from a page that takes no form", "/terms-of-service", "application/x-www-form-urlencoded", 60_000],
  ])(
    "hears the next request on a keep-alive connection after %s answered without reading its body",
    async (_what, path, type, size) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const refused = await send(agent, "POST", path, "x".repeat(size), { "content-type": type });
      expect(refused.status).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      const next = await send(agent, "GET", "/healthz");
      expect(next.status).toBe(200);
      expect(next.reused).toBe(true);
      agent.destroy();
    },
  );
});
