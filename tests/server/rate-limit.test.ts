import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withinOneMinute } from "../helpers/minute";
import { startServer, type RunningServer } from "../helpers/server";

/**
 * The production limits (DESIGN.md §8): login, sign-up and password reset each allow 10
 * requests a minute from one address; the 11th is answered 429. The server runs with the
 * default AUTH_RATE_LIMIT, and the forms are posted as a browser without JavaScript does.
 */
describe("the sign-in rate limits of the production server", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  const post = (pathname: string, fields: Record<string, string>) =>
    fetch(`${server.url}${pathname}`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });

  it("answers the 11th login in a minute from one address with 429, even with the right password", async () => {
    await withinOneMinute(20);
    const login = () => post("/login", { login: "member", password: "memberhall-demo" });
    const first = await Promise.all(Array.from({ length: 10 }, login));
    for (const response of first) {
      expect(response.status).toBe(302);
      expect(response.headers.getSetCookie().some((c) => c.startsWith("mh_session="))).toBe(true);
    }

    const eleventh = await login();
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(eleventh.headers.getSetCookie().some((c) => c.startsWith("mh_session="))).toBe(false);
    expect(await eleventh.text()).toContain("Too many login attempts from your network");
  });

  it("answers the 11th sign-up and the 11th reset request in a minute with 429", async () => {
    await withinOneMinute(15);
    for (const [pathname, message] of [
      ["/signup", "Too many sign-ups from your network"],
      ["/login/help", "Too many requests from your network"],
    ] as const) {
      // Empty forms: each is counted before it is read, and refused for its fields.
      for (let i = 0; i < 10; i += 1) expect((await post(pathname, {})).status, pathname).toBe(400);
      const eleventh = await post(pathname, {});
      expect(eleventh.status, pathname).toBe(429);
      expect(Number(eleventh.headers.get("retry-after")), pathname).toBeGreaterThan(0);
      expect(await eleventh.text(), pathname).toContain(message);
    }
  });
});
