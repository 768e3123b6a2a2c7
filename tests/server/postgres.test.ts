import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../helpers/db";
import { relay } from "../helpers/relay";
import { startServer, type RunningServer } from "../helpers/server";

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
