import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../helpers/server";

/** A header may carry Latin-1 only; a return address must stay within printable ASCII. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

const SNOWMAN = "\u2603";
const GRIN = "\u{1F600}";

function expectHeaderSafe(response: Response) {
  expect(response.status).toBeLessThan(500);
  for (const [name, value] of response.headers)
    expect(
      [...value].every((c) => c.charCodeAt(0) <= 0xff),
      name,
    ).toBe(true);
  const location = response.headers.get("location");
  if (location !== null) {
    expect(location).toMatch(PRINTABLE_ASCII);
    expect(new URL(location, "http://x.invalid").host).toBe("x.invalid");
  }
}

const cookiesOf = (response: Response) => response.headers.getSetCookie().map((c) => c.split(";")[0]!);

/** A request line sent byte for byte, UTF-8 in the path, as no fetch would send it. */
function rawGet(server: RunningServer, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, "127.0.0.1", () => {
      socket.write(Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`, "utf8"));
    });
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => (answer += chunk));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("return addresses with characters outside Latin-1", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer({ env: { AUTH_RATE_LIMIT: "1000" } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  const logIn = (redirectTo: string | null, cookies: string[] = []) => {
    const body = new URLSearchParams({ login: "member", password: "memberhall-demo" });
    if (redirectTo !== null) body.set("redirectTo", redirectTo);
    return fetch(`${server.url}/login`, {
      method: "POST",
      headers: { origin: server.url, cookie: cookies.join("; ") },
      body,
      redirect: "manual",
    });
  };

  /** Follows the answer to a login to where the member lands, checking every hop. */
  async function landing(login: Response, cookies: string[] = []): Promise<string> {
    expectHeaderSafe(login);
    expect(login.status).toBe(302);
    const jar = [...cookies, ...cookiesOf(login)];
    const next = await fetch(`${server.url}/redirect-login-success`, {
      headers: { cookie: jar.join("; ") },
      redirect: "manual",
    });
    expectHeaderSafe(next);
    expect(next.status).toBe(302);
    return next.headers.get("location")!;
  }

  it.each([
    `/members/${SNOWMAN}`,
    `/members?x=${GRIN}`,
    `${SNOWMAN}`,
    `//evil.example/${GRIN}`,
    `/\u00e9t\u00e9`,
    "/x%ED%A0%80",
  ])("answers /login?redirectTo=%s with the page, not a 500", async (target) => {
    const query = new URLSearchParams({ redirectTo: target });
    const response = await fetch(`${server.url}/login?${query}`, { redirect: "manual" });
    expectHeaderSafe(response);
    expect(response.status).toBe(200);
  });

  it.each([
    [`/members/${SNOWMAN}`, "/members/%E2%98%83"],
    [`/profile?tab=${GRIN}`, "/profile?tab=%F0%9F%98%80"],
    [`//evil.example/${SNOWMAN}`, "/"],
    ["/x\u0085y", "/"],
  ])("takes the login form's redirectTo %s to %s", async (target, expected) => {
    expect(await landing(await logIn(target))).toBe(expected);
  });

  it("remembers a protected page with a snowman in its path, encoded, and goes back there after login", async () => {
    const visit = await fetch(`${server.url}/members/${encodeURIComponent(SNOWMAN)}`, { redirect: "manual" });
    expectHeaderSafe(visit);
    expect(visit.status).toBe(302);
    expect(visit.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/members/%E2%98%83")}`);
    expect(await landing(await logIn(null), cookiesOf(visit))).toBe("/members/%E2%98%83");
  });

  it("answers a request line with raw UTF-8 in a protected path without a 500", async () => {
    for (const path of [`/members/${SNOWMAN}`, `/profile/${GRIN}?q=${SNOWMAN}`]) {
      const answer = await rawGet(server, path);
      const status = Number(answer.slice(9, 12));
      expect(status, answer.slice(0, 200)).toBeGreaterThanOrEqual(300);
      expect(status).toBeLessThan(500);
      const location = /^location: (.*)$/im.exec(answer)?.[1]?.trim();
      if (location) expect(location).toMatch(PRINTABLE_ASCII);
    }
  });

  it("drops a forged after-login cookie that does not carry the site's signature", async () => {
    const forged = `mh_after_login=${encodeURIComponent(Buffer.from(JSON.stringify(`/${SNOWMAN}`)).toString("base64"))}`;
    expect(await landing(await logIn(null), [forged])).toBe("/");
  });
});
