import { test as base, expect, type Page } from "@playwright/test";
import { claimSession, type Role } from "./session-pool";

/*
 * Signing in without typing:
 *
 *   test("…", async ({ page, signIn, pageAs }) => {
 *     await signIn("member");              // this page's context, as the demo member
 *     await page.goto("/");
 *     const admin = await pageAs("admin"); // a second browser, as the admin
 *   });
 *
 * The sessions are made in the test database by the global setup (prepare-database.ts),
 * before the server opens it; each is given to one test only.
 */

export type { Role };

export type SignedIn = {
  username: string;
  sessionId: string;
  /** When the server last checked this login; its freshness (spec §4) counts from here. */
  loginCheckedAt: Date;
};

type Fixtures = {
  /** Console errors a test expects (a 404 it asked for); anything else fails the test. */
  expectedConsoleErrors: RegExp[];
  consoleErrors: string[];
  /**
   * Signs the page's browser context in as the demo member of the role (admin, creator,
   * tester, member, newbie who needs setup) with a session of its own made in the test
   * database, by setting the session cookie: nothing is typed. The page is not moved.
   */
  signIn: (role: Role, page?: Page) => Promise<SignedIn>;
  /** A page in a browser context of its own, signed in as the role; closed after the test. */
  pageAs: (role: Role) => Promise<Page>;
  /**
   * Makes the app framed by the learning site in this page's context hold a state-header
   * session of the role, kept in the frame's storage as the frame client keeps the one a
   * hand-off gives (app/lib/state-client.ts): no cookie, no hand-off.
   */
  signInFrame: (role: Role, page?: Page) => Promise<SignedIn>;
};

function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: run through playwright.config.ts");
  return dir;
}

/**
 * Every page test fails on an unexpected browser console error or a CSP violation, so a
 * blocked script cannot pass unnoticed.
 */
export const test = base.extend<Fixtures>({
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error("E2E_BASE_URL is not set: run through playwright.config.ts");
    await use(url);
  },
  expectedConsoleErrors: [[], { option: true }],
  consoleErrors: [
    async ({ page, expectedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(message.text());
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use(errors);
      const unexpected = errors.filter((e) => !expectedConsoleErrors.some((pattern) => pattern.test(e)));
      expect(unexpected, "browser console errors").toEqual([]);
    },
    { auto: true },
  ],
  signIn: async ({ page, baseURL }, use) => {
    await use(async (role, target = page) => {
      const session = claimSession(dataDir(), "cookie", role);
      await target
        .context()
        .addCookies([{ ...session.cookie, url: baseURL!, httpOnly: true, sameSite: "Lax", secure: false }]);
      return { username: session.username, sessionId: session.id, loginCheckedAt: new Date(session.loginCheckedAt) };
    });
  },
  pageAs: async ({ browser, baseURL, signIn }, use) => {
    const contexts: Awaited<ReturnType<typeof browser.newContext>>[] = [];
    await use(async (role) => {
      const context = await browser.newContext({ baseURL });
      contexts.push(context);
      const page = await context.newPage();
      await signIn(role, page);
      return page;
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
  signInFrame: async ({ page, baseURL }, use) => {
    await use(async (role, target = page) => {
      const session = claimSession(dataDir(), "frame", role);
      await target.context().addInitScript(
        ({ origin, items }) => {
          // Only the app's document inside a frame, and only before its client has a key.
          if (window.top === window.self || window.location.origin !== origin) return;
          if (window.sessionStorage.getItem("deviceKey")) return;
          for (const [key, value] of Object.entries(items)) window.sessionStorage.setItem(key, value);
        },
        {
          origin: new URL(baseURL!).origin,
          items: { deviceKey: session.devicePrivateKey, state: session.state, stateHash: session.stateHash },
        },
      );
      return { username: session.username, sessionId: session.id, loginCheckedAt: new Date(session.loginCheckedAt) };
    });
  },
});

export { expect };

export const DEMO_PASSWORD = "memberhall-demo";

/**
 * Logs a demo member in by typing into the login form (staying on it when a redirect
 * already led there), and waits until the form sends the browser on. Only for tests of
 * the login form: every typed login counts toward the limit of 10 a minute per address, so
 * other tests use `signIn`.
 */
export async function logIn(page: Page, username: string, password = DEMO_PASSWORD) {
  if (!new URL(page.url(), "http://x").pathname.startsWith("/login")) await page.goto("/login");
  await fillLogin(page, username, password);
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}

/** Opens the login form and sends it typed, leaving the page wherever it leads (a second step, a refusal). */
export async function submitLogin(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto("/login");
  await fillLogin(page, username, password);
}

async function fillLogin(page: Page, username: string, password: string) {
  await page.getByLabel("Username or e-mail address").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}
