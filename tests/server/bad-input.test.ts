import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../helpers/server";

/** No malformed body, query or header gets a 5xx: each is answered with a 4xx or a page. */
describe("bad input", () => {
  let server: RunningServer;
  let memberCookie = "";
  let adminCookie = "";
  let newbieCookie = "";
  let creatorCookie = "";

  const login = async (username: string) => {
    const response = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ login: username, password: "memberhall-demo" }),
      redirect: "manual",
    });
    return response.headers
      .getSetCookie()
      .find((c) => c.startsWith("mh_session="))!
      .split(";")[0]!;
  };

  beforeAll(async () => {
    // Many requests log in from one address here; the login limit has its own test.
    server = await startServer({ env: { LRM_HANDOFF_SECRET: "x".repeat(40), AUTH_RATE_LIMIT: "100" } });
    memberCookie = await login("member");
    adminCookie = await login("admin");
    newbieCookie = await login("newbie");
    creatorCookie = await login("creator");
  });
  afterAll(async () => {
    await server?.stop();
  });

  const bodies: [string, BodyInit, Record<string, string>][] = [
    ["an empty form", "", { "content-type": "application/x-www-form-urlencoded" }],
    ["JSON", JSON.stringify({ login: ["x"], password: { $gt: "" } }), { "content-type": "application/json" }],
    ["multipart without a boundary", "--xx\r\nnonsense", { "content-type": "multipart/form-data" }],
    [
      "binary junk",
      new Uint8Array([0, 255, 1, 254, 37, 37, 37]),
      { "content-type": "application/x-www-form-urlencoded" },
    ],
    [
      "broken percent-encoding",
      "login=%ZZ&password=%E0%A4%A&intent=%",
      { "content-type": "application/x-www-form-urlencoded" },
    ],
    [
      "arrays and huge values",
      `username=a&username=b&email=${"e".repeat(100_000)}&planId=monthly&cardNumber=${"4".repeat(5_000)}`,
      { "content-type": "application/x-www-form-urlencoded" },
    ],
  ];

  const postRoutes: [string, () => string][] = [
    ["/login", () => ""],
    ["/signup", () => ""],
    ["/login/help", () => ""],
    ["/login/reset", () => ""],
    ["/logout", () => memberCookie],
    ["/signup/check-email", () => newbieCookie],
    ["/setup/profile", () => newbieCookie],
    ["/re-join", () => memberCookie],
    ["/admin", () => adminCookie],
    ["/admin/backups", () => adminCookie],
  ];

  it.each(postRoutes)("POST %s answers malformed bodies without a 5xx", async (path, cookie) => {
    for (const [what, body, headers] of bodies) {
      const response = await fetch(`${server.url}${path}`, {
        method: "POST",
        body,
        headers: { ...headers, cookie: cookie(), origin: server.url },
        redirect: "manual",
      });
      await response.arrayBuffer();
      expect(response.status, `${path} with ${what}`).toBeLessThan(500);
    }
  });

  it.each([
    "/login?redirectTo=%ZZ",
    `/login?redirectTo=${"/x".repeat(3_000)}`,
    "/signup/verify?token=%00%01",
    "/login/reset?token=" + "t".repeat(5_000),
    "/members?page=-1&q=%25%5F%5C",
    "/members/not-a-uuid",
    "/members/import/not-a-uuid?view=%00&after=-5",
    "/admin/backups/%00/download",
    "/login/welcome?token=%00",
    "/db/mail_outbox/abc",
    "/api/login/lrm-auth?auth_code=%ZZ&hash=zz",
    "/c/%E0%A4%A",
    "/nol/creator/%E0%A4%A/notice",
    "/no-such-page/%E0%A4%A",
  ])("GET %s answers without a 5xx", async (path) => {
    const response = await fetch(`${server.url}${path}`, { headers: { cookie: adminCookie }, redirect: "manual" });
    await response.arrayBuffer();
    expect(response.status).toBeLessThan(500);
  });

  it("refuses a state-changing request from another site's page, and takes one from this site", async () => {
    const cookie = await login("creator");
    const post = (origin?: string) =>
      fetch(`${server.url}/logout`, {
        method: "POST",
        headers: { cookie, ...(origin ? { origin } : {}) },
        redirect: "manual",
      });
    expect((await post("https://evil.example")).status).toBe(403);
    // The session survived the refused logout.
    expect((await fetch(`${server.url}/profile`, { headers: { cookie }, redirect: "manual" })).status).toBe(200);
    expect((await post("null")).status).toBe(403);
    expect((await post(server.url)).status).toBe(302);
  });

  it("answers a NUL character in an address, a form or a JSON body with 400", async () => {
    const responses = await Promise.all([
      fetch(`${server.url}/members?q=%00`, { headers: { cookie: adminCookie }, redirect: "manual" }),
      fetch(`${server.url}/support`, {
        method: "POST",
        headers: { origin: server.url },
        body: new URLSearchParams({ email: "a@example.org", subject: "x\u0000y", message: "m" }),
      }),
      fetch(`${server.url}/api/errors`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: server.url },
        body: JSON.stringify([{ time: new Date().toISOString(), href: "/", message: "\u0000" }]),
      }),
    ]);
    expect(responses.map((r) => r.status)).toEqual([400, 400, 400]);
  });

  it("refuses a NUL character in a notarize form's field with 400 and says which field", async () => {
    const response = await fetch(`${server.url}/nol/creator/traffic-stop/notarize`, {
      method: "POST",
      headers: { cookie: creatorCookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=create&cf_number=1&round_cnt=1&cf_version=a%00b",
    });
    const page = await response.text();
    expect(response.status).toBe(400);
    expect(page).toContain("A NUL character (U+0000) cannot be stored: leave it out of cf_version");
  });

  it.each(["1e308", "99999999999999999999999", "2147483648"])(
    "refuses respondent=%s on the reassessment form with 400 and the field's message",
    async (respondent) => {
      const response = await fetch(`${server.url}/respondent-reassessment`, {
        method: "POST",
        headers: { cookie: creatorCookie, origin: server.url },
        body: new URLSearchParams({ respondent, reason: "The office moved" }),
        redirect: "manual",
      });
      const page = await response.text();
      expect(response.status).toBe(400);
      expect(page).toMatch(/id="[^"]*-respondent-error" class="field-error">Choose a respondent</);
    },
  );

  it.each(["1e308", "99999999999999999999999"])(
    "opens a NoL step with ?respondent=%s as if no respondent were picked",
    async (respondent) => {
      const response = await fetch(
        `${server.url}/nol/creator/traffic-stop/notice?version=Bounds&respondent=${respondent}`,
        { headers: { cookie: creatorCookie }, redirect: "manual" },
      );
      await response.arrayBuffer();
      expect(response.status).toBe(200);
    },
  );

  it.each([
    ["a garbage cookie", { cookie: "mh_session=%%%; other=\u00ff" }],
    ["a forged session cookie", { cookie: "mh_session=eyJhIjoxfQ.forged" }],
    ["a state that is not URL-encoded JSON", { state: "%E0%A4%A", "state-hash": "00", "state-sig": "00" }],
    ["a huge state", { state: "a".repeat(20_000), "state-hash": "0".repeat(64), "state-sig": "0".repeat(64) }],
  ])("answers %s without a 5xx, on pages and on the API", async (_what, headers) => {
    for (const path of ["/", "/profile", "/api/login/recheck", "/api/config"]) {
      const response = await fetch(`${server.url}${path}`, { headers, redirect: "manual" });
      await response.arrayBuffer();
      expect(response.status, path).toBeLessThan(500);
    }
  });
});
