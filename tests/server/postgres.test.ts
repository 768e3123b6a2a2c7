import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../helpers/db";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * A TCP relay in front of PostgreSQL lets the test take the database away from a running
 * server and give it back, as an outage would.
 */
function relay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<number>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on("close", () => sockets.delete(s));
          s.on("error", () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve(port);
      });
    });
  const close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server?.close(() => resolve());
    });
  return { open, close };
}

describe.runIf(process.env.TEST_DATABASE_URL)("the server on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: ReturnType<typeof relay>;
  let server: RunningServer;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const target = new URL(database.url);
    proxy = relay({ host: target.hostname, port: Number(target.port || 5432) });
    const port = await proxy.open();
    const viaProxy = new URL(database.url);
    viaProxy.host = `127.0.0.1:${port}`;
    server = await startServer({ env: { DATABASE_URL: viaProxy.toString() } });
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await database?.drop();
  });

  it("migrates, seeds and serves the catalogue from PostgreSQL", async () => {
    expect(server.output()).toContain('"driver":"postgres"');
    const catalogue = await (await fetch(`${server.url}/api/config/causes`)).json();
    expect(catalogue.countryCauses.US.live_causes).toContain("TS");
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });

  it("turns /healthz to 503 while PostgreSQL is away and back to 200 when it returns, without a restart", async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);

    await proxy.close();
    const down = await fetch(`${server.url}/healthz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ ok: false, db: "unavailable" });

    await proxy.open();
    const up = await fetch(`${server.url}/healthz`);
    expect(up.status).toBe(200);
    expect(await up.json()).toEqual({ ok: true, db: "ok" });
    expect(server.process.exitCode).toBeNull();
  });
});
