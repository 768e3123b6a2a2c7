import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logInAs, startServer, type RunningServer } from "../helpers/server";

/** The longest a request may wait on another's work, with room for a busy two-core machine. */
const BOUND_MS = 250;

/**
 * Long work (a members import's dry run of a large file) gives the event loop back often
 * enough that another request, on a connection of its own, is answered meanwhile.
 */
describe("long work and the other requests", () => {
  let server: RunningServer;
  let cookie = "";

  beforeAll(async () => {
    server = await startServer();
    cookie = await logInAs(server.url, "admin");
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Asks for /healthz every 50 ms on a connection of its own until stopped; the slowest answer's time. */
  function probe() {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const healthz = () =>
      new Promise<number>((resolve, reject) => {
        http
          .get(`${server.url}/healthz`, { agent }, (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode!));
          })
          .on("error", reject);
      });
    const times: number[] = [];
    let running = true;
    const done = (async () => {
      while (running) {
        const started = performance.now();
        expect(await healthz()).toBe(200);
        times.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    return {
      async stop() {
        running = false;
        await done;
        agent.destroy();
        return times;
      },
    };
  }

  it.each([
    ["50,000 one-character rows", (i: number) => String.fromCharCode(97 + (i % 26))],
    ["50,000 valid rows", (i: number) => `loop${i}@example.org,Loop ${i}`],
  ])(`answers /healthz within ${BOUND_MS} ms during the dry run of %s`, async (_what, line) => {
    const csv = ["email,name", ...Array.from({ length: 50_000 }, (_, i) => line(i))].join("\n");
    const form = new FormData();
    form.set("file", new Blob([csv], { type: "text/csv" }), "loop.csv");
    const healthz = probe();
    // The probe's first answers come before the upload starts.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const uploaded = await fetch(`${server.url}/members/import`, {
      method: "POST",
      body: form,
      headers: { origin: server.url, cookie },
      redirect: "manual",
    });
    await uploaded.arrayBuffer();
    const times = await healthz.stop();
    expect([200, 302, 400]).toContain(uploaded.status);
    expect(times.length).toBeGreaterThan(5);
    expect(Math.max(...times), `slowest /healthz of ${times.length}: ${times.map(Math.round).join(", ")}`).toBeLessThan(
      BOUND_MS,
    );
  });
});
