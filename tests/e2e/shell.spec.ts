import { expect, test } from "./fixtures";
import { openOutbox } from "./new-member";

test("the visitor home: welcome, Login and Sign Up, the footer, no navigation", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: /Welcome to/ })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "Terms of Service" })).toBeVisible();
  await expect(footer.getByRole("link", { name: "Privacy Policy" })).toBeVisible();
  await expect(footer.getByRole("link", { name: "Support" })).toBeVisible();
  await expect(footer).toContainText("Memberhall Community");
});

test("the member home shows the navigation with the username and e-mail, without admin entries", async ({
  page,
  signIn,
}) => {
  await signIn("member");
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Community home" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "member", exact: true })).toBeVisible();
  await expect(nav).toContainText("member@memberhall.example");
  await expect(nav.getByRole("button", { name: "Logout" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Members" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Coupons" })).toHaveCount(0);
});

test("an admin sees Members and Coupons", async ({ page, signIn }) => {
  await signIn("admin");
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Members" })).toHaveAttribute("href", "/members");
  await expect(nav.getByRole("link", { name: "Coupons" })).toHaveAttribute("href", "/coupon/discounts");
});

test("the navigation works by keyboard", async ({ page, signIn }) => {
  await signIn("member");
  await page.goto("/");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Community home" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Respondents" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/profile$/);
});

test("Support opens the modal; the request lands in the database and the outbox", async ({ page, signIn, pageAs }) => {
  await signIn("member");
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Support" }).click();
  const dialog = page.getByRole("dialog", { name: "Contact Support" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Your e-mail address")).toHaveValue("member@memberhall.example");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.getByRole("contentinfo").getByRole("link", { name: "Support" }).click();
  const subject = `Cannot find my notice ${Date.now()}`;
  await dialog.getByLabel("Subject").fill(subject);
  await dialog.getByLabel("Message").fill("Round 2 is missing from my list.");
  await dialog.getByRole("button", { name: "Send" }).click();
  await expect(dialog.getByText(/Your request #\d+ has reached our support team/)).toBeVisible();

  const admin = await pageAs("admin");
  await admin.goto("/db/support_requests");
  const row = admin.getByRole("row", { name: new RegExp(subject) });
  await expect(row).toContainText("member@memberhall.example");
  await expect(row).toContainText("Member Site");
  await openOutbox(admin, { subject });
  await expect(admin.getByRole("link", { name: new RegExp(`Support request #\\d+: ${subject}`) })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Support is a page with the same form", async ({ page }) => {
    await page.goto("/");
    await page.getByRole("contentinfo").getByRole("link", { name: "Support" }).click();
    await expect(page).toHaveURL(/\/support$/);
    await page.getByLabel("Your e-mail address").fill("visitor@example.org");
    await page.getByLabel("Subject").fill("A question");
    await page.getByLabel("Message").fill("How do I join?");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page.getByText(/Your request #\d+ has reached our support team/)).toBeVisible();
  });
});

test.describe("a client error", () => {
  test.use({ expectedConsoleErrors: [/client-side failure for the test/] });

  test("shows the red bar and is reported to /api/errors", async ({ page, signIn }) => {
    await signIn("member");
    await page.goto("/");
    // The error listener is set once the page has hydrated: a busy machine takes a while.
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.waitForLoadState("networkidle");
    const reported = page.waitForRequest((r) => r.url().endsWith("/api/errors") && r.method() === "POST");
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error("client-side failure for the test");
      });
    });
    await expect(
      page.getByRole("alert").filter({ hasText: "An error was detected and reported, please try back later" }),
    ).toBeVisible();
    const request = await reported;
    const body = request.postDataJSON() as {
      message: string;
      href: string;
      time: string;
      state: { username: string };
    }[];
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ message: "client-side failure for the test", state: { username: "member" } });
    expect(body[0]!.href).toMatch(/\/$/);
    expect((await request.response())?.status()).toBe(201);
  });
});

test.describe("the coupon banner", () => {
  test("is kept from the coupon landing, fixed on /c/ and /signup, dismissible elsewhere, and stays dismissed", async ({
    page,
  }) => {
    await page.goto("/c/welcome");
    const banner = page.getByRole("region", { name: "Your offer" });
    await expect(banner).toContainText("10% off your first payment");
    await expect(banner.getByRole("button", { name: "Dismiss the offer" })).toHaveCount(0);

    await page.goto("/community");
    await expect(banner).toBeVisible();
    await banner.getByRole("button", { name: "Dismiss the offer" }).click();
    await expect(banner).toHaveCount(0);
    await expect(page).toHaveURL(/\/community$/);
    await page.reload();
    await expect(banner).toHaveCount(0);

    await page.goto("/signup");
    await expect(banner).toContainText("10% off your first payment");
    await expect(banner.getByRole("button", { name: "Dismiss the offer" })).toHaveCount(0);
  });
});

test("a group page names the group in the footer", async ({ page }) => {
  await page.goto("/g/inpower");
  await expect(page.getByRole("heading", { level: 1, name: "InPower" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText("InPower");
});

test("the Terms of Service come from the community's Markdown", async ({ page }) => {
  await page.goto("/terms-of-service");
  await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
  await expect(page.getByText("Nothing on this site is legal advice.")).toBeVisible();
});

test("the newsletter: double opt-in from the e-mailed link, and the unsubscribe link with the confirm button", async ({
  page,
  pageAs,
}) => {
  const email = `reader-${Date.now()}@example.org`;
  await page.goto("/newsletter-subscribe");
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByText("Check your e-mail: open the link we sent to confirm your subscription.")).toBeVisible();

  const admin = await pageAs("admin");
  await admin.goto("/db/mail_outbox");
  await admin
    .getByRole("row", { name: new RegExp(email) })
    .getByRole("link", { name: "Confirm your newsletter subscription" })
    .click();
  const text = (await admin.locator("pre.mail").textContent()) ?? "";
  const confirm = new URL(/http\S+\?confirm=\S+/.exec(text)![0]);
  const unsubscribe = new URL(/http\S+\?unsubscribe=\S+/.exec(text)![0]);

  await page.goto(confirm.pathname + confirm.search);
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByText("Thank you: you will receive our newsletter.")).toBeVisible();

  await page.goto(unsubscribe.pathname + unsubscribe.search);
  const stop = page.getByRole("button", { name: "Stop the newsletter" });
  await stop.click();
  // The first click only arms the button.
  await expect(page.getByRole("button", { name: "Click again to confirm" })).toBeVisible();
  await page.getByRole("button", { name: "Click again to confirm" }).click();
  await expect(page.getByText("You will not receive our newsletter any more.")).toBeVisible();
});

test("home page screenshots at 375 and 1280 pixels wide", async ({ page }, testInfo) => {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/");
    const file = testInfo.outputPath(`home-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    await testInfo.attach(`home-${width}`, { path: file, contentType: "image/png" });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `horizontal overflow at ${width}px`).toBeLessThanOrEqual(0);
  }
});
