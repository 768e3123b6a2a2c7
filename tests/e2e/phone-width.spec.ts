import { expect, test } from "./fixtures";
import { cutOff, expectPlansFullWidth } from "./on-screen";

/**
 * On a phone 390 pixels wide a wide table shows its rows as cards and values show whole; wider, a
 * wide table scrolls in its own box (every page: accessibility.spec.ts).
 */

test.describe("pages at 390 pixels wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a wide table shows each row as a card of labelled lines, its controls within the screen", async ({
    page,
    signIn,
  }) => {
    await signIn("admin");
    await page.goto("/members?q=member");
    const table = page.getByRole("table", { name: /^Members, sorted by/ });
    const row = table.getByRole("row", { name: /member@memberhall\.example/ });
    await expect(row.getByRole("cell", { name: "member@memberhall.example" })).toHaveAttribute("data-label", "E-mail");
    const box = (await row.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    for (const control of [
      row.getByRole("checkbox", { name: "Choose member" }),
      row.getByRole("link", { name: "member", exact: true }),
    ]) {
      const { x, width } = (await control.boundingBox())!;
      expect(x + width).toBeLessThanOrEqual(390 - 16);
    }
    // The headers that sort the list stay, as a row of links above the cards.
    const sort = (await table
      .getByRole("columnheader", { name: /^Last seen/ })
      .getByRole("link")
      .boundingBox())!;
    expect(sort.width).toBeGreaterThan(1);
    expect(sort.x + sort.width).toBeLessThanOrEqual(390 - 16);
    await expect(cutOff(page)).resolves.toEqual([]);
  });

  test("wider than a phone, a table wider than the screen scrolls in a labelled box with a shadow at its cut edge", async ({
    page,
    signIn,
  }) => {
    await signIn("admin");
    await page.setViewportSize({ width: 700, height: 844 });
    await page.goto("/members");
    const box = page.getByRole("region", { name: "Member list" });
    await expect(box).toHaveAttribute("tabindex", "0");
    const scroll = await box.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(scroll).toBeGreaterThan(0);
    const style = await box.evaluate((el) => {
      const { backgroundImage, backgroundAttachment } = getComputedStyle(el);
      return { backgroundImage, backgroundAttachment };
    });
    expect(style.backgroundImage).toMatch(/gradient/);
    expect(style.backgroundAttachment).toMatch(/local/);
  });

  test("the plans take the card's width, each one's words under its name, under the page's heading", async ({
    page,
    signIn,
  }) => {
    await signIn("member");
    await page.goto("/subscription");
    const heading = (await page.getByRole("heading", { level: 1, name: "Membership" }).boundingBox())!;
    const offer = (await page.getByText(/^The NoL creator comes with/).boundingBox())!;
    expect(offer.y).toBeGreaterThan(heading.y + heading.height);
    await expectPlansFullWidth(page.getByRole("group", { name: "Donation or credit" }));
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
