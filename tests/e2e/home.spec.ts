import { expect, test } from "./fixtures";

test("a visitor sees the welcome page with Login and Sign Up", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("heading", { level: 1, name: /welcome to/i })).toBeVisible();
  await expect(page.getByRole("link", { name: "Login" })).toHaveAttribute("href", "/login");
  await expect(page.getByRole("link", { name: "Sign Up" })).toHaveAttribute("href", "/signup");
});

test.describe("a page that does not exist", () => {
  test.use({ expectedConsoleErrors: [/status of 404/] });

  test("shows the 404 page, hydrates under the CSP and goes home on the client", async ({ page }) => {
    const response = await page.goto("/terms-of-service/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();
    // Remix sets this once its client scripts have run, which the CSP nonce must allow.
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
    await page.getByRole("link", { name: "Back to the home page" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1, name: /welcome to/i })).toBeVisible();
    // Still the same document: the navigation happened in the client, not by a reload.
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
  });

  test("wears the whole shell for a signed-in member", async ({ page, signIn }) => {
    await signIn("member");
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle("404 · This page could not be found");
    await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Logout" })).toBeVisible();
    await expect(page.locator(".footer-name")).toHaveText("Memberhall Community");
  });
});

test("a member's home says what to do next: the creator's causes, the membership, and for others how to create notices", async ({
  page,
  signIn,
  pageAs,
}) => {
  await signIn("creator");
  await page.goto("/");
  const notices = page.getByRole("region", { name: "Your notices" });
  await expect(notices.getByRole("link", { name: "Traffic Stop" })).toHaveAttribute(
    "href",
    "/nol/creator/traffic-stop",
  );
  await expect(page.getByRole("region", { name: "Your membership" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Notices" })).toHaveAttribute(
    "href",
    "/nol",
  );

  const member = await pageAs("member");
  await member.goto("/");
  const theirs = member.getByRole("region", { name: "Your notices" });
  await expect(theirs).toContainText("The NoL creator prepares your Notices of Liability");
  await expect(
    theirs.getByRole("button", { name: "Upgrade to the Monthly membership ($20.00 a month)" }),
  ).toBeVisible();
  await expect(member.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Notices" })).toHaveCount(0);
});
