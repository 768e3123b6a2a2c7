import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { logInAs, newDataDir, startServer, type RunningServer } from "../helpers/server";

const ROWS = 30_000;
const IMPORT_ROUTE = encodeURIComponent("routes/members.import.$importId");

type ImportState = { status: string; total: number; processed: number; created: number; skipped: number };

async function stateOf(server: RunningServer, cookie: string, path: string): Promise<ImportState> {
  const response = await fetch(`${server.url}${path}?_data=${IMPORT_ROUTE}`, { headers: { cookie } });
  return ((await response.json()) as { page: { import: ImportState } }).page.import;
}

describe("a members import across a server restart", () => {
  const dataDir = newDataDir({});
  // Stopped here too, should the test be given up on while one runs (a timeout): a server left
  // running would go on importing beside the tests after it.
  const servers: RunningServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  // The waits below are bounded by their own deadlines, within the test's time.
  it("goes on after the server stops mid-way and starts again, doing no row twice", { timeout: 200_000 }, async () => {
    const first = await startServer({ dataDir });
    servers.push(first);
    let path: string;
    let cookie: string;
    let atStop: ImportState;
    try {
      cookie = await logInAs(first.url, "admin");
      const csv = ["email,name", ...Array.from({ length: ROWS }, (_, i) => `restart${i}@example.org,Restart ${i}`)];
      const form = new FormData();
      form.set("file", new Blob([csv.join("\n")], { type: "text/csv" }), "restart.csv");
      const uploaded = await fetch(`${first.url}/members/import`, {
        method: "POST",
        body: form,
        headers: { origin: first.url, cookie },
        redirect: "manual",
      });
      expect(uploaded.status).toBe(302);
      path = uploaded.headers.get("location")!;
      const started = await fetch(`${first.url}${path}`, {
        method: "POST",
        body: new URLSearchParams({ intent: "start" }),
        headers: { origin: first.url, cookie },
        redirect: "manual",
      });
      expect(started.status).toBe(302);
      // Under way: a batch or more done.
      const deadline = Date.now() + 60_000;
      do {
        await new Promise((resolve) => setTimeout(resolve, 100));
        atStop = await stateOf(first, cookie, path);
      } while (atStop.processed === 0 && Date.now() < deadline);
      expect(atStop.status).toBe("running");
    } finally {
      expect(await first.stop("SIGTERM")).toBe(0);
    }

    const second = await startServer({ dataDir });
    servers.push(second);
    try {
      const again = await stateOf(second, cookie, path);
      // The stopped server did its batch, queued the rest and stopped: the rest is left.
      expect(again.processed).toBeGreaterThanOrEqual(atStop.processed);
      expect(again.processed).toBeLessThan(ROWS);
      let state = again;
      const deadline = Date.now() + 120_000;
      while (state.status !== "done" && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        state = await stateOf(second, cookie, path);
      }
      // Every row once: a row done twice would find its member made already, and be skipped.
      expect(state).toMatchObject({ status: "done", total: ROWS, processed: ROWS, created: ROWS, skipped: 0 });
    } finally {
      await second.stop();
    }
  });
});
