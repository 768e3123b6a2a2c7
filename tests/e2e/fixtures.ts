import { test as base, expect, type Page } from "@playwright/test";

type Fixtures = {
  /** Console errors a test expects (a 404 it asked for); anything else fails the test. */
  expectedConsoleErrors: RegExp[];
  consoleErrors: string[];
};

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
});

export { expect };

/** Logs a demo member in through the login form (staying on it when a redirect already led there). */
export async function logIn(page: Page, username: string) {
  if (!new URL(page.url(), "http://x").pathname.startsWith("/login")) await page.goto("/login");
  await page.getByLabel("Username or e-mail address").fill(username);
  await page.getByLabel("Password").fill("memberhall-demo");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"));
}
