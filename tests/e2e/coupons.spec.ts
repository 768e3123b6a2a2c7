import { expect, test } from "./fixtures";

test.describe("coupons", () => {
  // The unknown offer's page is a 404, which the browser logs.
  test.use({ expectedConsoleErrors: [/status of 404/] });

  test("an admin makes a 20% coupon and its discount; a visitor sees the offer at /c/{slug}", async ({
    page,
    signIn,
    browser,
    baseURL,
  }) => {
    const stamp = Date.now().toString(36);
    const code = `E2E${stamp.toUpperCase()}`;
    const slug = `spring-${stamp}`;
    const welcome = `Welcome, spring friend ${stamp}!`;

    await signIn("admin");
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Coupons" }).click();
    await expect(page).toHaveURL(/\/coupon\/discounts$/);
    await expect(page.getByRole("heading", { level: 1, name: "Coupon discounts" })).toBeVisible();

    const couponForm = page.getByRole("form", { name: "Create a coupon" });
    await couponForm.getByLabel("Code").fill(code);
    await couponForm.getByLabel("Name").fill(`Spring 20% ${stamp}`);
    await couponForm.getByLabel("Duration").selectOption("forever");
    await couponForm.getByLabel("Percent off").fill("20");
    await couponForm.getByRole("checkbox", { name: "Monthly membership" }).check();
    await couponForm.getByRole("button", { name: "Create the coupon" }).click();
    await expect(page.getByText(`The coupon ${code} is created.`)).toBeVisible();
    await expect(page.getByRole("row", { name: new RegExp(code) })).toContainText("20% off every payment");

    await page.getByRole("link", { name: "New coupon discount" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New coupon discount" })).toBeVisible();
    await page.getByLabel("Slug").fill(slug);
    await page.getByLabel("Group (optional)").fill("Spring friends");
    await page.getByLabel("Welcome message (optional)").fill(welcome);
    await page.getByRole("radio", { name: new RegExp(`^Spring 20% ${stamp}:`) }).check();
    await expect(page.getByLabel(/^Active/)).toBeChecked();
    await page.getByRole("button", { name: "Create the discount" }).click();
    await expect(page.getByText(`The coupon discount /c/${slug} is saved.`)).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: `Coupon discount /c/${slug}` })).toBeVisible();

    const visitor = await (await browser.newContext({ baseURL })).newPage();
    const refreshed = visitor.waitForResponse((r) => r.url().endsWith(`/api/coupon_slug/discount/${slug}?refresh=1`));
    await visitor.goto(`/c/${slug}`);
    expect((await refreshed).status()).toBe(200);
    const offer = visitor.getByRole("main");
    await expect(offer.getByRole("heading", { level: 1, name: welcome })).toBeVisible();
    await expect(offer).toContainText("Spring friends");
    // Shown first as loaded with the page, then as the refreshed load answers.
    await expect(offer.locator("[aria-busy]")).toHaveCount(0);
    const monthly = offer
      .getByRole("listitem")
      .filter({ has: visitor.getByRole("heading", { name: "Monthly membership" }) });
    await expect(monthly.locator("s")).toHaveText("$20.00 a month");
    await expect(monthly.locator("strong")).toHaveText("$16.00 a month");
    await expect(monthly.getByRole("link", { name: "Subscribe: Monthly membership" })).toHaveAttribute(
      "href",
      "/signup?plan=monthly",
    );
    await expect(visitor.getByRole("region", { name: "Your offer" })).toContainText("20% off every payment");

    await visitor.goto(`/c/no-offer-${stamp}`);
    await expect(visitor.getByRole("heading", { level: 1, name: "This page could not be found" })).toBeVisible();
    await expect(visitor.getByText("This offer is not available")).toBeVisible();
    await visitor.context().close();
  });

  test("a member who has a membership is told so instead of the offer", async ({ page, signIn }) => {
    await signIn("member");
    await page.goto("/c/members-friends");
    await expect(page.getByRole("heading", { level: 1, name: "You already have a membership" })).toBeVisible();
    await expect(page.getByText("$16.00")).toHaveCount(0);
  });
});
