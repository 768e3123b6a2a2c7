import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import type { Role } from "./session-pool";

/** Every page fits a phone 390 pixels wide: a wide table scrolls in its own box, never the page. */

async function expectFitsAndAccessible(page: Page, path: string) {
  await page.goto(path);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `width of ${path} at 390 pixels`).toBeLessThanOrEqual(390);
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(serious, `accessibility of ${path} at 390 pixels`).toEqual([]);
}

const pagesByRole: [Role, string[]][] = [
  [
    "admin",
    [
      "/members",
      "/db",
      "/db/audit_log",
      "/db/payments",
      "/db/sessions",
      "/db/mail_outbox",
      "/admin",
      "/admin/jobs",
      "/coupon/discounts",
    ],
  ],
  ["admin", ["/", "/causes", "/admin/settings", "/admin/templates", "/subscription", "/nol"]],
  ["member", ["/respondents", "/profile", "/profile/security", "/", "/subscription", "/nol"]],
  ["creator", ["/respondents", "/profile", "/profile/security"]],
];

test.describe("pages at 390 pixels wide", () => {
  test.describe.configure({ timeout: 180_000 });
  test.use({ viewport: { width: 390, height: 844 } });

  for (const [role, pages] of pagesByRole) {
    test(`${pages.join(" ")} fit the screen of the ${role} with no serious accessibility violation`, async ({
      page,
      signIn,
    }) => {
      await signIn(role);
      for (const path of pages) {
        await expectFitsAndAccessible(page, path);
        if (path !== "/members") continue;
        // A member's page, from the list.
        const member = await page.getByRole("link", { name: "member", exact: true }).getAttribute("href");
        await expectFitsAndAccessible(page, member!);
      }
    });
  }

  test("a wide table scrolls in a labelled box the keyboard can reach", async ({ page, signIn }) => {
    await signIn("admin");
    await page.goto("/members");
    const box = page.getByRole("region", { name: "Member list" });
    await expect(box).toHaveAttribute("tabindex", "0");
    const scroll = await box.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(scroll).toBeGreaterThan(0);
  });

  test("the profile's values and the sessions' log out buttons show whole on a phone", async ({ page, signIn }) => {
    await signIn("member");
    await page.goto("/profile");
    const email = page.getByRole("cell", { name: /member@memberhall\.example/ });
    const cell = (await email.boundingBox())!;
    expect(cell.x + cell.width).toBeLessThanOrEqual(390 - 16);

    await page.goto("/profile/security");
    const button = page.getByRole("button", { name: /^Log out .+, last used/ }).first();
    const box = (await button.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390 - 16);
  });
});
