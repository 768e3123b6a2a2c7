import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";

// The longest tests of the suite, first in its order so that the two workers end together.

test.describe("accessibility", () => {
  test.use({ expectedConsoleErrors: [/status of 404/] });
  // axe reads every page whole: give the machine time when it is busy.
  test.describe.configure({ timeout: 120_000 });

  const visitorPages = [
    "/",
    "/login",
    "/login/help",
    "/signup",
    "/signup/terms",
    "/terms-of-service",
    "/privacy-policy",
    "/newsletter-subscribe",
    "/community",
    "/community/join",
    "/g/inpower",
    "/g/rev18",
    "/c/welcome",
    "/c/no-such-offer",
    "/support",
    "/no-such-page",
  ];

  // Two halves, one for each worker; pages in one test share the browser's cache.
  for (const pages of [visitorPages.slice(0, 8), visitorPages.slice(8)]) {
    test(`visitor pages ${pages.join(" ")} have no serious or critical violations`, async ({ page }) => {
      for (const path of pages) {
        await page.goto(path);
        await expectAccessible(page, path);
      }
    });
  }

  const signedInPages = [
    "/",
    "/profile",
    "/profile/billing",
    "/profile/credits",
    "/community-group-pending",
    "/members",
    "/admin",
    "/coupon/discounts",
    "/coupon/discount",
    "/coupon/discount/1",
    "/admin/templates",
    "/admin/templates/1",
    "/admin/settings",
    "/db/mail_outbox",
  ];

  for (const [half, pages] of [signedInPages.slice(0, 6), signedInPages.slice(6)].entries()) {
    test(`member and admin pages ${pages.join(" ")} have no serious or critical violations`, async ({
      page,
      signIn,
    }) => {
      await signIn("admin");
      for (const path of pages) {
        await page.goto(path);
        await expectAccessible(page, path);
      }
      if (half === 1) {
        await page.getByRole("contentinfo").getByRole("link", { name: "Support" }).click();
        await expect(page.getByRole("dialog", { name: "Contact Support" })).toBeVisible();
        await expectAccessible(page, "the Support modal");
      }
    });
  }
});
