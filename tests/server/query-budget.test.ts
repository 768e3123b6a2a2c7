import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queriesOf } from "~/db/query-count.server";
import { logInAs, startServer, type RunningServer } from "../helpers/server";

/**
 * The database queries each hot page runs, as the built server names them in its
 * Server-Timing header (SERVER_TIMING=1): a page reads what it shows in a few queries, and a
 * signed-in request reads no viewer, plan, cause or filter choice the server already keeps.
 */
describe("queries per page on the built server", () => {
  let server: RunningServer;
  const cookies: Record<string, string> = {};

  beforeAll(async () => {
    server = await startServer({ env: { SERVER_TIMING: "1" } });
    for (const login of ["member", "creator", "admin"]) cookies[login] = await logInAs(server.url, login);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
  });

  const queries = async (pathname: string, login?: string) => {
    const response = await fetch(`${server.url}${pathname}`, {
      headers: login ? { cookie: cookies[login]! } : {},
      redirect: "manual",
    });
    await response.arrayBuffer();
    expect(response.status, pathname).toBe(200);
    const count = queriesOf(response.headers.get("server-timing"));
    expect(count, `${pathname} names its queries`).not.toBeNull();
    return count!;
  };

  it.each([
    ["/", undefined, 0],
    ["/login", undefined, 0],
    ["/api/config", undefined, 0],
    ["/", "member", 0],
    ["/", "creator", 1],
    ["/nol/creator/traffic-stop/notice?version=Budget", "creator", 1],
    // The account page reads the member's data archive's state.
    ["/profile", "member", 1],
    ["/members", "admin", 1],
    ["/api/entry/nol-member-versions", "member", 1],
  ] as const)("%s (%s) runs at most %i queries once the viewer is kept", async (pathname, login, budget) => {
    await queries(pathname, login);
    expect(await queries(pathname, login)).toBeLessThanOrEqual(budget);
  });

  it("reads a session's viewer on its first request and not on the next", async () => {
    const fresh = await logInAs(server.url, "member");
    const read = async () => {
      const page = await fetch(`${server.url}/`, { headers: { cookie: fresh } });
      await page.arrayBuffer();
      return queriesOf(page.headers.get("server-timing"));
    };
    expect(await read()).toBe(1);
    expect(await read()).toBe(0);
  });
});
