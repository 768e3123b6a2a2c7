import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase } from "../helpers/db";
import { logInAs, startServer, type RunningServer } from "../helpers/server";

/**
 * Two servers on one PostgreSQL, as a deployment behind a load balancer runs them: each keeps
 * recent viewers and the reference data (plans, causes…), and a change made through one
 * reaches the other on its next request.
 */
describe.runIf(process.env.TEST_DATABASE_URL)("two servers on one PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let a: RunningServer;
  let b: RunningServer;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const env = {
      DATABASE_URL: database.url,
      SESSION_SECRET: randomBytes(32).toString("hex"),
      STATE_SECRET: randomBytes(32).toString("hex"),
    };
    a = await startServer({ env });
    b = await startServer({ env });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  const logIn = (server: RunningServer, login: string) => logInAs(server.url, login);
  const send = (server: RunningServer, cookie: string, pathname: string, form?: Record<string, string>) =>
    fetch(`${server.url}${pathname}`, {
      method: form ? "POST" : "GET",
      headers: { cookie, ...(form ? { origin: server.url } : {}) },
      body: form ? new URLSearchParams(form) : undefined,
      redirect: "manual",
    });
  const rootData = async (server: RunningServer, cookie: string) => {
    const response = await send(server, cookie, "/?_data=root");
    return (await response.json()) as { session: { username: string; nolCreator: boolean } | null };
  };

  it("refuses on server B a session logged out on server A, at B's next request", async () => {
    const cookie = await logIn(a, "member");
    // B reads the viewer twice: the second time from what it keeps.
    expect((await send(b, cookie, "/profile")).status).toBe(200);
    expect((await send(b, cookie, "/profile")).status).toBe(200);

    const logout = await send(a, cookie, "/logout", {});
    expect(logout.status).toBe(302);
    const after = await send(b, cookie, "/profile");
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toMatch(/^\/login/);
  });

  it("shows on server B a member's flag an admin set on server A, at B's next request", async () => {
    const member = await logIn(a, "member");
    const admin = await logIn(a, "admin");
    expect((await send(b, member, "/nol/creator")).status).toBe(200);
    const before = await rootData(b, member);
    expect(before.session?.username).toBe("member");
    expect(before.session?.nolCreator).toBe(false);

    const list = await (await send(a, admin, "/members?q=member&_data=routes%2Fmembers._index")).json();
    const id = (list.list.rows as { id: string; username: string }[]).find((r) => r.username === "member")!.id;
    const saved = await send(a, admin, `/members/${id}`, { intent: "flags", nolCreator: "on" });
    expect(saved.status).toBeLessThan(400);

    const after = await rootData(b, member);
    expect(after.session?.nolCreator).toBe(true);
  });

  it("shows on server B a cause an admin added on server A, at B's next request", async () => {
    const admin = await logIn(a, "admin");
    const causesOn = async (server: RunningServer) => {
      const response = await fetch(`${server.url}/api/config/causes`);
      return ((await response.json()) as { causes: Record<string, { name: string }> }).causes;
    };
    // B reads the catalogue twice: the second time from what it keeps.
    expect(await causesOn(b)).not.toHaveProperty("TWOS");
    expect(await causesOn(b)).not.toHaveProperty("TWOS");

    const added = await send(a, admin, "/causes", {
      intent: "add-cause",
      code: "TWOS",
      label: "Two",
      name: "Two Servers",
    });
    expect(added.status).toBeLessThan(400);
    expect((await causesOn(b)).TWOS?.name).toBe("Two Servers");
  });
});
