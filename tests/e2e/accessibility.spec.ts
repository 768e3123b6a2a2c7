import type { Page } from "@playwright/test";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { cutOff } from "./on-screen";
import { saveRoundOne } from "./round-one";

/**
 * Every page of every role, on a phone 390 pixels wide and on a desktop: each answers, fits the
 * screen's width (a wide table scrolls in its own box, never the page), cuts off no control and
 * no table without a cue that it scrolls, and has no serious or critical accessibility violation.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The page fits the viewport's width, cuts nothing off at the side and reads well to axe. */
async function fitsAndReads(page: Page, what: string) {
  const width = page.viewportSize()!.width;
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `width of ${what} at ${width} pixels`).toBeLessThanOrEqual(width);
  expect(await cutOff(page), `what ${what} cuts off at the side at ${width} pixels`).toEqual([]);
  await expectAccessible(page, `${what} at ${width} pixels`);
}

/**
 * Opens the page on a phone, which answers `status`, fits and reads well; then the same page on
 * a desktop's width.
 */
async function check(page: Page, path: string, status = 200) {
  await page.setViewportSize(PHONE);
  const response = await page.goto(path);
  expect(response?.status(), `status of ${path}`).toBe(status);
  await fitsAndReads(page, path);
  await page.setViewportSize(DESKTOP);
  await fitsAndReads(page, path);
}

const VISITOR_PAGES = [
  "/",
  "/login",
  "/login/help",
  "/signup",
  "/signup/terms",
  "/signup/privacy-policy",
  "/terms-of-service",
  "/privacy-policy",
  "/newsletter-subscribe",
  "/subscription",
  "/community",
  "/community/join",
  "/g/inpower",
  "/g/rev18",
  "/c/welcome",
  "/support",
  "/lrm",
];

const MEMBER_PAGES = [
  "/",
  "/profile",
  "/profile/security",
  "/profile/security/totp",
  "/profile/notices",
  "/profile/billing",
  "/profile/credits",
  "/subscription",
  "/nol/creator",
  "/respondents",
  "/suggest-a-new-respondent",
  "/respondent-reassessment",
  "/search-for-a-respondent",
  "/notice-of-correction",
  "/support",
  "/community-group-pending",
  "/re-join",
];

const ADMIN_PAGES = [
  "/admin",
  "/admin/jobs",
  "/admin/waiting-rounds",
  "/admin/mailings",
  "/admin/backups",
  "/admin/settings",
  "/admin/templates",
  "/admin/templates/1",
  "/members",
  "/members/import",
  "/coupon/discounts",
  "/coupon/discount",
  "/coupon/discount/1",
  "/causes",
  "/respondents/review",
  "/respondents",
];

test.describe("every page", () => {
  test.use({ expectedConsoleErrors: [/status of 404/] });
  // axe reads every page whole: give the machine time when it is busy.
  test.describe.configure({ timeout: 240_000 });

  test("a visitor's pages, and the pages that are not there", async ({ page }) => {
    for (const path of VISITOR_PAGES) await check(page, path);
    await check(page, "/c/no-such-offer", 404);
  });

  test("a new member's setup and a member's pages, with the Support modal", async ({ page, signIn, pageAs }) => {
    const newbie = await pageAs("newbie");
    await check(newbie, "/");
    await check(newbie, "/setup");
    await expect(newbie).toHaveURL(/\/setup\/profile$/);

    await signIn("member");
    for (const path of MEMBER_PAGES) await check(page, path);
    await check(page, "/no-such-page", 404);
    await page.getByRole("contentinfo").getByRole("link", { name: "Support" }).click();
    await expect(page.getByRole("dialog", { name: "Contact Support" })).toBeVisible();
    await fitsAndReads(page, "the Support modal");
    await page.setViewportSize(PHONE);
    await fitsAndReads(page, "the Support modal");
  });

  test("a creator's causes, steps, answers, notarize page and the notary's signing page", async ({ page, signIn }) => {
    await signIn("creator");
    const version = `Every page ${Date.now()}`;
    const step = (kind: string) => `/nol/creator/traffic-stop/${kind}?version=${encodeURIComponent(version)}`;
    await check(page, "/nol/creator");
    await check(page, "/nol/creator/traffic-stop");
    await check(page, step("notice"));
    await saveRoundOne(page, version, "Eve Everypage", "100");
    await page
      .locator("article.version")
      .filter({ hasText: version })
      .getByRole("link", { name: "Round 1 Notice of Liability: view your answers" })
      .click();
    await expect(page.getByRole("heading", { name: "Answers" })).toBeVisible();
    await check(page, new URL(page.url()).pathname + new URL(page.url()).search);
    await check(page, step("mailing"));
    await check(page, step("mail"));
    await check(page, `${step("sign")}&round=1`);

    await check(page, step("notarize"));
    await expect(page.getByText("Preparing the preview…")).toHaveCount(0);
    await page.getByRole("button", { name: "Notarize online" }).click();
    await expect(page.getByTestId("notarize-status")).toHaveText("Sent: waiting for you to sign");
    await fitsAndReads(page, "the notarize page, sent");
    await page.setViewportSize(PHONE);
    await fitsAndReads(page, "the notarize page, sent");
    const signing = (await page.getByRole("link", { name: "Open the signing page" }).getAttribute("href"))!;
    await check(page, signing);
    await check(page, "/profile/notices");
  });

  test("an admin's pages and a member's page", async ({ page, signIn }) => {
    await signIn("admin");
    for (const path of ADMIN_PAGES) await check(page, path);
    await check(page, "/members?q=member");
    const member = await page.getByRole("link", { name: "member", exact: true }).getAttribute("href");
    await check(page, member!);
  });

  // The data browser in two halves, one for each worker.
  for (const half of [0, 1]) {
    test(`the data browser, half ${half + 1}: each kind of record, its list and its first record`, async ({
      page,
      signIn,
    }) => {
      await signIn("admin");
      await check(page, "/db");
      const lists = await page
        .locator("main .link-list a")
        .evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
      expect(lists.length).toBeGreaterThanOrEqual(19);
      const middle = Math.ceil(lists.length / 2);
      for (const list of half === 0 ? lists.slice(0, middle) : lists.slice(middle)) {
        await check(page, list);
        const first = page.locator("tbody tr").first().getByRole("link").first();
        if ((await first.count()) === 0) continue;
        await check(page, (await first.getAttribute("href"))!);
      }
    });
  }
});
