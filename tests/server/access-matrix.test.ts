import { rmSync } from "node:fs";
import path from "node:path";
import { isNotNull } from "drizzle-orm";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { logInAs, newDataDir, startServer, type RunningServer } from "../helpers/server";

/**
 * Every route that exists × visitor, member, member needing setup, admin → the answer.
 * "login" is a redirect to /login remembering the page; "setup" a redirect to /setup.
 * Later features add their rows here.
 */
type Expected = number | "login" | "setup" | `→${string}`;
type Row = [path: string, visitor: Expected, member: Expected, newbie: Expected, admin: Expected];

const LEARN = "https://learn.example.org";

const MATRIX: Row[] = [
  ["/", 200, 200, 200, 200],
  ["/login", 200, "→/redirect-login-success", "→/redirect-login-success", "→/redirect-login-success"],
  ["/login/help", 200, 200, 200, 200],
  ["/login/reset", 200, 200, 200, 200],
  ["/login/welcome", 200, 200, 200, 200],
  ["/login/unknown", 404, 404, 404, 404],
  ["/logout", "→/", 200, 200, 200],
  ["/signup", 200, "→/", "→/setup", "→/"],
  ["/signup/terms", 200, 200, 200, 200],
  ["/signup/privacy-policy", 200, 200, 200, 200],
  ["/signup/check-email", "→/login", 200, 200, 200],
  ["/signup/verify", 200, 200, 200, 200],
  ["/signup/unknown", 404, 404, 404, 404],
  ["/setup", "login", "→/", "→/setup/profile", "→/"],
  ["/setup/profile", "login", "→/", 200, "→/"],
  ["/setup/membership", "login", "→/", "→/setup/profile", "→/"],
  ["/re-join", "login", 200, "setup", 200],
  ["/community-group-pending", "login", 200, "setup", 200],
  ["/loading", "login", 200, "setup", 200],
  ["/profile", "login", 200, "setup", 200],
  ["/profile/billing", "login", 200, "setup", 200],
  ["/profile/credits", "login", 200, "setup", 200],
  ["/profile/unknown", "login", 404, "setup", 404],
  // A data archive's link is for the member it was made for: any other code is a 404 to anyone signed in.
  [`/profile/data/${"A".repeat(43)}`, "login", 404, "setup", 404],
  ["/profile/data/not-a-code", "login", 404, "setup", 404],
  // The archive's file: the e-mailed link leads here with its code; without one there is nothing.
  ["/profile/data/download", "login", 404, "setup", 404],
  // Leaving is open at every step of setup: the deletion page is the one profile page a newbie opens.
  ["/profile/delete", "login", 200, 200, 200],
  ["/profile/billing/receipts/00000000-0000-4000-8000-000000000000", "login", 404, "setup", 404],
  ["/profile/billing/receipts/not-a-payment", "login", 404, "setup", 404],
  ["/members", "login", 403, "setup", 200],
  ["/members?status=ACTIVE&country=US&sort=email&dir=asc&joined_from=2020-01-01", "login", 403, "setup", 200],
  ["/members/export.csv", "login", 403, "setup", 200],
  ["/members/export.csv?q=demo", "login", 403, "setup", 200],
  ["/members/00000000-0000-0000-0000-000000000000", "login", 403, "setup", 404],
  ["/members/import", "login", 403, "setup", 200],
  ["/members/import/00000000-0000-4000-8000-000000000000", "login", 403, "setup", 404],
  ["/members/import/00000000-0000-4000-8000-000000000000/report.csv", "login", 403, "setup", 404],
  ["/members/import/not-an-id", "login", 403, "setup", 404],
  ["/members/deletions", "login", 403, "setup", 200],
  ["/user", "login", "→/profile", "setup", "→/profile"],
  [
    "/user/00000000-0000-4000-8000-000000000000",
    "login",
    404,
    "setup",
    "→/members/00000000-0000-4000-8000-000000000000",
  ],
  ["/user/not-an-id", "login", 404, "setup", 404],
  ["/respondents", "login", 200, "setup", 200],
  ["/respondents?q=clerk&type=Official&place=x", "login", 200, "setup", 200],
  ["/respondents/review", "login", 403, "setup", 200],
  ["/search-for-a-respondent", "login", 200, "setup", 200],
  ["/suggest-a-new-respondent", "login", 200, "setup", 200],
  ["/respondent-reassessment", "login", 200, "setup", 200],
  ["/respondent-reassessment?respondent=1", "login", 200, "setup", 200],
  ["/notice-of-correction", "login", 200, "setup", 200],
  ["/profile/security", "login", 200, "setup", 200],
  // Second factors (decision 045): none of the demo members has one.
  ["/profile/security/totp", "login", 200, "setup", 200],
  ["/profile/security/recovery-codes", "login", "→/profile/security", "setup", "→/profile/security"],
  ["/profile/security/verify", "login", "→/profile/security", "setup", "→/profile/security"],
  ["/profile/security/passkey", 405, 405, 405, 405],
  ["/login/factor", "→/login", "→/login", "→/login", "→/login"],
  ["/login/passkey", 405, 405, 405, 405],
  ["/profile/notices", "login", 200, "setup", 200],
  ["/profile/account", "login", 404, "setup", 404],
  ["/admin", "login", 403, "setup", 200],
  ["/causes", "login", 403, "setup", 200],
  ["/admin/jobs", "login", 403, "setup", 200],
  ["/admin/backups", "login", 403, "setup", 200],
  ["/admin/backups/00000000-0000-4000-8000-000000000000/download", "login", 403, "setup", 404],
  ["/admin/backups/not-an-id/download", "login", 403, "setup", 404],
  ["/admin/waiting-rounds", "login", 403, "setup", 200],
  ["/admin/mailings", "login", 403, "setup", 200],
  ["/admin/mailings?state=nonsense&page=-1&member=%25_", "login", 403, "setup", 200],
  // A proof of service names its version and round; without them it is a 400 to anyone signed in.
  ["/nol/creator/traffic-stop/proof-of-service.pdf", "login", 400, "setup", 400],
  // So does a round's notice.
  ["/nol/creator/traffic-stop/notice.pdf", "login", 400, "setup", 400],
  // Mailing from the app is a page of a cause the member has (neither has the creator here);
  // a return receipt is of a letter of the member's own.
  ["/nol/creator/traffic-stop/mail", "login", "→/nol/creator", "setup", "→/nol/creator"],
  ["/nol/creator/traffic-stop/mail?version=None%20such", "login", "→/nol/creator", "setup", "→/nol/creator"],
  ["/nol/creator/traffic-stop/sign", "login", "→/nol/creator", "setup", "→/nol/creator"],
  ["/nol/creator/traffic-stop/sign?version=None%20such&round=1", "login", "→/nol/creator", "setup", "→/nol/creator"],
  [
    "/nol/creator/traffic-stop/return-receipt.pdf?letter=00000000-0000-4000-8000-000000000000",
    "login",
    404,
    "setup",
    404,
  ],
  ["/nol/creator/traffic-stop/return-receipt.pdf?letter=not-an-id", "login", 404, "setup", 404],
  ["/admin/templates", "login", 403, "setup", 200],
  ["/admin/settings", "login", 403, "setup", 200],
  ["/admin/templates/1", "login", 403, "setup", 200],
  ["/admin/templates/1/preview", "login", 403, "setup", 200],
  ["/admin/templates/999999", "login", 403, "setup", 404],
  ["/db", "login", 403, "setup", 200],
  ["/db/mail_outbox", "login", 403, "setup", 200],
  ["/db/audit_log", "login", 403, "setup", 200],
  ["/db/users", "login", 403, "setup", 404],
  ["/db/members", "login", 403, "setup", 200],
  ["/db/sessions?carrier=cookie&sort=lastSeenAt&dir=asc", "login", 403, "setup", 200],
  ["/db/nol_entries", "login", 403, "setup", 200],
  ["/db/plans/supporter", "login", 403, "setup", 200],
  ["/db/plans/no-such-plan", "login", 403, "setup", 404],
  ["/db/plans/export.csv", "login", 403, "setup", 200],
  ["/db/nothing/export.csv", "login", 403, "setup", 404],
  ["/nol-101", "login", `→${LEARN}/nol-101`, "setup", `→${LEARN}/nol-101`],
  ["/post-office", "login", `→${LEARN}/post-office`, "setup", `→${LEARN}/post-office`],
  ["/sso", "→/login", `→${LEARN}/sso`, `→${LEARN}/sso`, `→${LEARN}/sso`],
  ["/support", 200, 200, 200, 200],
  ["/terms-of-service", 200, 200, 200, 200],
  ["/privacy-policy", 200, 200, 200, 200],
  ["/newsletter-subscribe", 200, 200, 200, 200],
  // A reminder's unsubscribe link needs no session; one that is not genuine is refused.
  ["/reminders/unsubscribe", 400, 400, 400, 400],
  ["/reminders/unknown", 404, 404, 404, 404],
  ["/community", 200, 200, 200, 200],
  ["/community/join", 200, 200, 200, 200],
  ["/community/unknown", 404, 404, 404, 404],
  ["/g/inpower", 200, 200, 200, 200],
  ["/g/rev18", 200, 200, 200, 200],
  ["/g/unknown", 404, 404, 404, 404],
  ["/subscription", 200, 200, 200, 200],
  ["/subscription/unsafe/card-plus", 404, 404, 404, 404],
  ["/subscription/unsafe/card-plus?checkout=00000000-0000-4000-8000-000000000000", 404, 404, 404, 404],
  ["/subscription/unsafe/payment-intent?checkout=00000000-0000-4000-8000-000000000000", 404, 404, 404, 404],
  ["/subscription/unsafe/authenticate?checkout=not-a-uuid", 404, 404, 404, 404],
  ["/api/webhooks/stripe", 405, 405, 405, 405],
  ["/notary/sandbox/ot_sb_AAAAAAAAAAAAAAAAAAAAAA", 404, 404, 404, 404],
  ["/notary/sandbox/ot_sb_AAAAAAAAAAAAAAAAAAAAAA/document", 404, 404, 404, 404],
  ["/notary/sandbox/not-an-id", 404, 404, 404, 404],
  ["/c/welcome", 200, 200, 200, 200],
  ["/c/no-such-offer", 404, 404, 404, 404],
  ["/c", 404, 404, 404, 404],
  ["/db/error_reports", "login", 403, "setup", 200],
  ["/db/support_requests", "login", 403, "setup", 200],
  ["/api/errors", 405, 405, 405, 405],
  ["/nol", "login", "→/nol/creator", "setup", "→/nol/creator"],
  ["/nol/creator", "login", 200, "setup", 200],
  ["/nol/bogus", "login", "→/nol/NotFound", "setup", "→/nol/NotFound"],
  ["/nol/NotFound", "login", 404, "setup", 404],
  ["/nol/editor", "login", 200, "setup", 200],
  ["/nol/creator/traffic-stop", "login", "→/nol/creator", "setup", "→/nol/creator"],
  ["/nol/creator/no-such-cause", "login", 404, "setup", 404],
  ["/nol/creator/traffic-stop/notice", "login", "→/nol/creator", "setup", "→/nol/creator"],
  ["/nol/creator/traffic-stop/notarize", "login", "→/nol/creator", "setup", "→/nol/creator"],
  ["/nol/seemless/187/no-such-hash", "login", 404, "setup", 404],
  ["/nol/seemless/187/no-such-hash?entry=%7B%7D", "login", 404, "setup", 404],
  ["/nol/seemless/999/no-such-hash?entry=%7B%7D", "login", 404, "setup", 404],
  ["/embed/nols", 200, 200, 200, 200],
  ["/embed/subscription", 200, 200, 200, 200],
  ["/api/entry/nol-member-versions", 401, 200, 403, 200],
  ["/api/entry/nol-member-versions?username=creator", 401, 404, 403, 200],
  ["/api/entry/nol-editors", 401, 200, 403, 200],
  ["/api/billing/membership", 401, 200, 403, 200],
  ["/api/nol/notices?cause_code=TS", 401, 200, 403, 200],
  ["/api/nol/notices", 401, 400, 403, 400],
  ["/api/nol/preview?cf_number=1&cf_version=v&round_cnt=1", 401, 404, 403, 404],
  ["/api/nol/preview", 401, 400, 403, 400],
  ["/api/nol/notarize", 405, 405, 405, 405],
  ["/api/nol/notarize/refresh/ot_sb_AAAAAAAAAAAAAAAAAAAAAA", 405, 405, 405, 405],
  ["/api/nol/notarize/ot_sb_AAAAAAAAAAAAAAAAAAAAAA", 405, 405, 405, 405],
  ["/api/nol/notarize/ot_sb_AAAAAAAAAAAAAAAAAAAAAA/document", 401, 404, 403, 404],
  ["/api/webhooks/notary", 405, 405, 405, 405],
  ["/api/webhooks/mailhouse", 405, 405, 405, 405],
  ["/api/creator/auth", 405, 405, 405, 405],
  ["/api/entry/cognito-submitted", 405, 405, 405, 405],
  ["/api/forms/cognito/not-the-secret/submit", 404, 404, 404, 404],
  ["/api/forms", 400, 400, 400, 400],
  ["/api/forms/entries", 401, 200, 403, 200],
  ["/api/forms/entries?form=207", 401, 200, 403, 200],
  ["/api/forms/entries/00000000-0000-4000-8000-000000000000", 401, 404, 403, 404],
  ["/api/forms/nothing-here", 404, 404, 404, 404],
  ["/lrm", 200, 200, 200, 200],
  ["/lrm/header", 200, 200, 200, 200],
  ["/lrm/iframe", 200, 200, 200, 200],
  ["/redirect-login-success", "→/", "→/", "→/", "→/"],
  ["/redirect-logout-success", "→/", "→/", "→/", "→/"],
  ["/no-such-page", "login", 404, "setup", 404],
  ["/signup/verify/extra/parts", 404, 404, 404, 404],
  ["/api/no-such-call", 404, 404, 404, 404],
  ["/api/config", 200, 200, 200, 200],
  ["/api/config/causes", 200, 200, 200, 200],
  ["/api/schema", 200, 200, 200, 200],
  ["/api/login/recheck", 401, 200, 200, 200],
  ["/api/login/lrm-auth", 400, 400, 400, 400],
  ["/coupon/discounts", "login", 403, "setup", 200],
  ["/coupon/discounts?show=all", "login", 403, "setup", 200],
  ["/coupon/discount", "login", 403, "setup", 200],
  ["/coupon/discount/1", "login", 403, "setup", 200],
  ["/coupon/discount/999999", "login", 403, "setup", 404],
  ["/coupon/discount/not-an-id", "login", 403, "setup", 404],
  ["/api/coupons", 401, 403, 403, 200],
  ["/api/coupon/discounts", 401, 403, 403, 200],
  ["/api/coupon/discount/1", 401, 403, 403, 200],
  ["/api/coupon/discount/999999", 401, 403, 403, 404],
  ["/api/coupon/WELCOME10", 401, 403, 403, 200],
  ["/api/coupon/NO-SUCH-COUPON", 401, 403, 403, 404],
  ["/api/coupon/discount", 405, 405, 405, 405],
  ["/api/coupon_slug/discount/welcome", 200, 200, 200, 200],
  ["/api/coupon_slug/discount/no-such-offer", 404, 404, 404, 404],
  ["/healthz", 200, 200, 200, 200],
];

const ROLES = ["visitor", "member", "newbie", "admin"] as const;

describe("access matrix", () => {
  let server: RunningServer;
  const cookies: Record<(typeof ROLES)[number], string> = { visitor: "", member: "", newbie: "", admin: "" };

  beforeAll(async () => {
    server = await startServer({
      env: {
        LRM_URL: LEARN,
        NOL_101_URL: `${LEARN}/nol-101`,
        POST_OFFICE_URL: `${LEARN}/post-office`,
        LRM_SSO_URL: `${LEARN}/sso`,
        LRM_SSO_SECRET: "sso-secret",
      },
    });
    for (const role of ["member", "newbie", "admin"] as const) {
      const response = await fetch(`${server.url}/login`, {
        method: "POST",
        headers: { origin: server.url },
        body: new URLSearchParams({ login: role, password: "memberhall-demo" }),
        redirect: "manual",
      });
      expect(response.status, `login as ${role}`).toBe(302);
      const session = response.headers.getSetCookie().find((c) => c.startsWith("mh_session="));
      cookies[role] = session!.split(";")[0]!;
    }
  });
  afterAll(async () => {
    await server?.stop();
  });

  it.each(MATRIX)("%s", async (path, ...expected) => {
    const results: string[] = [];
    const wanted: string[] = [];
    for (const [i, role] of ROLES.entries()) {
      const response = await fetch(`${server.url}${path}`, {
        headers: cookies[role] ? { cookie: cookies[role] } : {},
        redirect: "manual",
      });
      await response.arrayBuffer();
      const location = response.headers.get("location");
      const target = location ? location.replace(server.url, "").split("?")[0] : null;
      let got: string;
      if (response.status === 302 && target === "/login" && location!.includes("redirectTo=")) got = "login";
      else if (response.status === 302 && target === "/setup" && expected[i] === "setup") got = "setup";
      else if (response.status === 302) got = `→${target}`;
      else got = String(response.status);
      // Every answer, a file's too, says nosniff once (two would read "nosniff, nosniff").
      const nosniff = response.headers.get("x-content-type-options");
      if (nosniff !== "nosniff") got += ` with X-Content-Type-Options: ${nosniff}`;
      results.push(`${role}: ${got}`);
      wanted.push(`${role}: ${typeof expected[i] === "number" ? String(expected[i]) : expected[i]}`);
    }
    expect(results).toEqual(wanted);
  });
});

/**
 * Where a second factor is required of admins (MFA_REQUIRED_FOR=admin), an admin without one
 * reaches no admin page and no admin action: each sends them to set one up, and each admin API
 * call answers 403. A bad code on the set-up changes nothing.
 */
describe("access matrix with a second factor required of admins", () => {
  let server: RunningServer;
  let admin = "";
  const ADMIN_PAGES = MATRIX.filter(([, , member, , adminAnswer]) => member === 403 && adminAnswer !== 403).map(
    ([path]) => path,
  );

  beforeAll(async () => {
    server = await startServer({ env: { MFA_REQUIRED_FOR: "admin" } });
    const response = await fetch(`${server.url}/login`, {
      method: "POST",
      headers: { origin: server.url },
      body: new URLSearchParams({ login: "admin", password: "memberhall-demo" }),
      redirect: "manual",
    });
    admin = response.headers
      .getSetCookie()
      .find((c) => c.startsWith("mh_session="))!
      .split(";")[0]!;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const ask = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { cookie: admin, origin: server.url, ...(init.headers ?? {}) },
      redirect: "manual",
    });

  it("sends the admin to set up a factor from every admin page, and refuses every admin API call", async () => {
    expect(ADMIN_PAGES.length).toBeGreaterThan(15);
    const answers: string[] = [];
    for (const path of ADMIN_PAGES) {
      const response = await ask(path);
      const location = response.headers.get("location") ?? "";
      const code = path.startsWith("/api/") ? ((await response.json()) as { code?: string }).code : "";
      if (!code) await response.arrayBuffer().catch(() => undefined);
      answers.push(`${path}: ${response.status} ${location.replace(server.url, "").split("?")[0]}${code ?? ""}`);
    }
    expect(answers).toEqual(
      ADMIN_PAGES.map((path) =>
        path.startsWith("/api/") ? `${path}: 403 factor_setup_required` : `${path}: 302 /profile/security`,
      ),
    );
  });

  it.each([
    ["/admin", { username: "member" }],
    ["/members/00000000-0000-0000-0000-000000000000", { intent: "flags", nolCreator: "on" }],
    ["/members?index", { action: "set-nolCreator", ids: "00000000-0000-0000-0000-000000000000" }],
    ["/coupon/discounts", { intent: "archive-coupon", coupon_id: "x" }],
    ["/admin/templates?index", { intent: "disclaimer", disclaimer: "changed" }],
    ["/admin/settings", { intent: "links" }],
  ])("refuses the admin action POST %s until a factor is set up", async (path, fields) => {
    const response = await ask(path, { method: "POST", body: new URLSearchParams(fields) });
    await response.arrayBuffer();
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/profile\/security\?redirectTo=/);
  });

  it("answers an admin API call with a 403 naming the missing factor", async () => {
    const response = await ask("/api/coupon/discount", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({}),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: "factor_setup_required" });
    // Another member's NoL versions are an admin's to read, and not before the factor.
    const versions = await ask("/api/entry/nol-member-versions?username=creator");
    expect(versions.status).toBe(404);
  });

  it("refuses a wrong first code of an authenticator app with a clear message, and turns nothing on", async () => {
    const page = await (await ask("/profile/security/totp")).text();
    const sealed = /name="sealed" value="([^"]+)"/.exec(page)?.[1];
    expect(sealed).toBeTruthy();
    const response = await ask("/profile/security/totp", {
      method: "POST",
      body: new URLSearchParams({ sealed: sealed!, code: "000000" }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("That code is not right. Check the code and try again.");
    const bad = await ask("/profile/security/totp", {
      method: "POST",
      body: new URLSearchParams({ sealed: sealed!, code: "12ab" }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Enter the 6-digit code from your authenticator app");
    const still = await ask("/admin");
    await still.arrayBuffer();
    expect(still.headers.get("location")).toMatch(/^\/profile\/security\?/);
  });
});

/**
 * A backup holds every member's data, their sessions and the audit log: where a second factor
 * is required of admins, making, downloading and deleting one asks for a factor passed within
 * the last ten minutes, as a members CSV does. The admin's factor is set up on a first server;
 * the second one, on the same data, finds it passed eleven minutes ago.
 */
describe("backups with a second factor passed more than ten minutes ago", () => {
  const ENV = { MFA_REQUIRED_FOR: "admin" };
  let dataDir = "";
  let server: RunningServer | null = null;
  let admin = "";
  let totp: TOTP;
  /** A backup made while the factor was fresh, to download, and one to delete. */
  let kept = "";
  let doomed = "";

  const ask = (pathname: string, init: RequestInit = {}) =>
    fetch(`${server!.url}${pathname}`, {
      ...init,
      headers: { cookie: admin, origin: server!.url, ...(init.headers ?? {}) },
      redirect: "manual",
    });
  const post = (fields: Record<string, string>) =>
    ask("/admin/backups?index", { method: "POST", body: new URLSearchParams(fields) });
  type Listed = { backups: { id: string; status: string }[] };
  const listed = async () =>
    ((await (await ask(`/admin/backups?_data=${encodeURIComponent("routes/admin_.backups._index")}`)).json()) as Listed)
      .backups;
  /** Waits out the backup under way, if any; answers the backups kept then. */
  async function settled() {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const backups = await listed();
      if (!backups.some((b) => b.status === "queued" || b.status === "running") || Date.now() > deadline) {
        return backups;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  async function makeBackup(): Promise<string> {
    const before = new Set((await listed()).map((b) => b.id));
    const started = await post({ intent: "start" });
    await started.arrayBuffer();
    expect(started.status).toBe(302);
    const made = (await settled()).find((b) => !before.has(b.id));
    expect(made?.status).toBe("done");
    return made!.id;
  }
  /** Waits out the last seconds of a 30-second step, so a code made now is checked within it. */
  async function clearOfStepEnd() {
    const into = Date.now() % 30_000;
    if (into > 27_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - into + 50));
  }

  beforeAll(async () => {
    dataDir = newDataDir({});
    server = await startServer({ dataDir, env: ENV });
    admin = await logInAs(server.url, "admin");
    const page = await (await ask("/profile/security/totp")).text();
    const sealed = /name="sealed" value="([^"]+)"/.exec(page)?.[1];
    const secret = /<code>([A-Z2-7 ]{30,})<\/code>/.exec(page)?.[1];
    expect(sealed && secret).toBeTruthy();
    totp = new TOTP({ secret: Secret.fromBase32(secret!.replace(/\s+/g, "")) });
    // Set up with the previous step's code, so that the code of the step current later is unused.
    await clearOfStepEnd();
    const set = await ask("/profile/security/totp", {
      method: "POST",
      body: new URLSearchParams({ sealed: sealed!, code: totp.generate({ timestamp: Date.now() - 30_000 }) }),
    });
    await set.arrayBuffer();
    expect(set.status).toBe(302);
    kept = await makeBackup();
    doomed = await makeBackup();
    await server.stop();

    const database = await openDatabase({ driver: "pglite", dir: path.join(dataDir, "pgdata") });
    await database.db
      .update(sessions)
      .set({ factorPassedAt: new Date(Date.now() - 11 * 60_000) })
      .where(isNotNull(sessions.factorPassedAt));
    await database.close();
    server = await startServer({ dataDir, env: ENV });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("sends a download to pass the factor, to come back to the download", async () => {
    const download = `/admin/backups/${kept}/download`;
    const refused = await ask(download);
    await refused.arrayBuffer();
    expect(refused.status).toBe(302);
    const verify = `/profile/security/verify?for=backup&redirectTo=${encodeURIComponent(download)}`;
    expect(refused.headers.get("location")).toBe(verify);
    const page = await ask(verify);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Use your second factor to make, download or delete a backup.");
  });

  it.each([
    ["making a backup", { intent: "start" }],
    ["deleting a backup", { intent: "delete" }],
  ])("answers %s with the factor's form, carrying the form's own fields, and does nothing", async (_, fields) => {
    const form = fields.intent === "delete" ? { ...fields, backupId: doomed } : fields;
    const refused = await post(form);
    expect(refused.status).toBe(403);
    const page = await refused.text();
    expect(page).toContain('<h1 id="step-up-title">Confirm it is you</h1>');
    expect(page).toContain("make, download or delete a backup");
    expect(/<form method="post" action="([^"]*)" class="form">/.exec(page)?.[1]).toBe("/admin/backups");
    for (const [name, value] of Object.entries(form)) {
      expect(page).toContain(`<input type="hidden" name="${name}" value="${value}"/>`);
    }
    expect((await listed()).map((b) => [b.id, b.status])).toEqual([
      [doomed, "done"],
      [kept, "done"],
    ]);
  });

  it("does the action the factor's form posts with a code, then lets each through: the download it came back to, a new backup", async () => {
    await clearOfStepEnd();
    // The prompt's form as the browser posts it again: its fields, and the code.
    const deleted = await ask("/admin/backups", {
      method: "POST",
      body: new URLSearchParams({ intent: "delete", backupId: doomed, stepUpCode: totp.generate() }),
    });
    await deleted.arrayBuffer();
    expect(deleted.status).toBe(302);
    expect((await listed()).map((b) => b.id)).toEqual([kept]);

    // Each step's code is taken once: the next step's, which one step either side lets through.
    const download = `/admin/backups/${kept}/download`;
    const passed = await ask("/profile/security/verify", {
      method: "POST",
      body: new URLSearchParams({
        stepUpCode: totp.generate({ timestamp: Date.now() + 30_000 }),
        redirectTo: download,
      }),
    });
    await passed.arrayBuffer();
    expect(passed.status).toBe(302);
    expect(passed.headers.get("location")).toBe(download);
    const file = await ask(download);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="/);
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);

    const made = await makeBackup();
    expect((await listed()).map((b) => b.id)).toEqual([made, kept]);
  });
});
