import { expect, test } from "./fixtures";

/** On a phone 390 pixels wide a wide table scrolls in its own box, and values show whole (every page: accessibility.spec.ts). */

test.describe("pages at 390 pixels wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

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
