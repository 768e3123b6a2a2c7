import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { openOutbox, payWithCard } from "./new-member";

/** A member's balance as their profile's credits page shows it. */
async function balanceOn(page: Page): Promise<number> {
  await page.goto("/profile/credits");
  const text = await page.getByTestId("credit-balance").textContent();
  return Number(/^(\d+) notarize credit/.exec(text ?? "")?.[1]);
}

test.describe("a subscribed member gives and buys", () => {
  // The amount refused first comes back as the form with its error, a 400.
  test.use({ expectedConsoleErrors: [/status of 400/] });

  test("donates an amount of their choice from /subscription, gets a receipt, and keeps the membership", async ({
    page,
    signIn,
    pageAs,
  }) => {
    await signIn("member");
    await page.goto("/subscription");
    await expect(page.getByText("You have the Supporter membership (active).")).toBeVisible();
    // No membership to choose again: a donation or a credit.
    await expect(page.getByRole("radio", { name: /Monthly membership/ })).toHaveCount(0);
    await page.getByRole("radio", { name: /^Donation/ }).check();
    await page.getByLabel("Donation amount (USD), for a donation").fill("0.10");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByText("Enter a donation from 1.00 to 10,000.00").first()).toBeVisible();
    await page.getByLabel("Donation amount (USD), for a donation").fill("12.34");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByText("Donation: $12.34")).toBeVisible();
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByText("Thank you for your donation: a receipt is on its way by e-mail.")).toBeVisible();

    await page.goto("/profile/billing");
    await expect(
      page
        .getByRole("row", { name: /Supporter membership/ })
        .or(page.getByText("Supporter membership"))
        .first(),
    ).toBeVisible();
    await expect(page.getByText("Active", { exact: true }).first()).toBeVisible();
    await expect(page.getByRole("cell", { name: "$12.34" }).first()).toBeVisible();

    const admin = await pageAs("admin");
    await expect(async () => {
      await openOutbox(admin, { to: "member@memberhall.example", subject: "Your receipt from" });
      await expect(
        admin
          .getByRole("row", { name: /member@memberhall\.example/ })
          .filter({ hasText: "Your receipt from" })
          .first(),
      ).toBeVisible();
    }).toPass({ timeout: 20_000 });
  });

  test("without JavaScript buys a notarize credit from the profile's billing and credits pages", async ({
    browser,
    signIn,
  }) => {
    test.setTimeout(60_000);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await signIn("member", page);
    const before = await balanceOn(page);
    await page.goto("/profile/billing");
    await page.getByRole("link", { name: "Notarize credits and donations" }).click();
    const form = page.getByRole("form", { name: "Give a donation or buy a notarize credit" });
    await form.getByRole("radio", { name: /^Notarize credit/ }).check();
    await form.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByText("Notarize credit: $25.00")).toBeVisible();
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByText("Thank you: your payment went through")).toBeVisible();
    expect(await balanceOn(page)).toBe(before + 1);
    await expect(
      page
        .getByRole("table", { name: "Credit history" })
        .getByRole("row", { name: /Bought/ })
        .first(),
    ).toBeVisible();
    await context.close();
  });
});

test("notarizing spends a credit: a member without one buys it, comes back to the notice, notarizes, and a delete before the notary starts gives it back", async ({
  page,
  signIn,
}) => {
  test.setTimeout(90_000);
  // The demo tester starts without credits; no other test spends or buys theirs.
  await signIn("tester");
  const version = `Credit ${Date.now()}`;
  await page.goto(`/nol/creator/traffic-stop/notice?version=${encodeURIComponent(version)}`);
  await page.getByLabel("Claimant's name").fill("Tess Tester");
  await page.getByLabel("Daily amount (USD)").fill("100");
  await page.getByLabel("Respondent 1", { exact: true }).fill("Clerk Example");
  await page.getByLabel("Type of respondent 1").selectOption("Official");
  await page.getByRole("button", { name: "Save Round 1 Notice of Liability" }).click();
  await page
    .locator("article.version")
    .filter({ hasText: version })
    .getByRole("link", { name: "Notarize the notice online" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Notarize online" })).toBeVisible();

  await expect(page.getByTestId("credit-balance")).toHaveText("0 notarize credits");
  await expect(page.getByText("You have no notarize credit left")).toBeVisible();
  const back = page.url();
  await page.getByRole("button", { name: "Buy a notarize credit ($25.00)" }).click();
  await expect(page.getByText("Notarize credit: $25.00")).toBeVisible();
  await payWithCard(page, "4242 4242 4242 4242");

  // Back at the same notice, with the credit.
  await expect(page.getByText("Thank you: your notarize credit is ready.")).toBeVisible();
  expect(page.url()).toBe(back);
  await expect(page.getByRole("heading", { name: version })).toBeVisible();
  await expect(page.getByTestId("credit-balance")).toHaveText("1 notarize credit");
  await expect(page.getByText("Preparing the preview…")).toHaveCount(0);
  await page.getByRole("button", { name: "Notarize online" }).click();
  await expect(page.getByTestId("notarize-status")).toHaveText("Sent: waiting for you to sign");
  await expect(page.getByTestId("credit-balance")).toHaveText("0 notarize credits");

  // Deleted before the notary started: the credit comes back.
  const remove = page.getByRole("button", { name: "Delete" });
  await remove.click();
  await page.getByRole("button", { name: "Click again to confirm" }).click();
  await expect(page.getByTestId("notarize-status")).toHaveText("Not notarized");
  await expect(page.getByTestId("credit-balance")).toHaveText("1 notarize credit");

  await page.goto("/profile/credits");
  const history = page.getByRole("table", { name: "Credit history" });
  await expect(history.getByRole("row", { name: /Bought/ })).toHaveCount(1);
  await expect(history.getByRole("row", { name: /Notarize \(given back\)/ })).toHaveCount(1);
  await expect(history.getByRole("cell", { name: "Given back", exact: true })).toHaveCount(1);
});

test("an admin grants credits from the member's page: audited, and in the member's history", async ({
  page,
  signIn,
  pageAs,
}) => {
  await signIn("member");
  const before = await balanceOn(page);
  const admin = await pageAs("admin");
  await admin.goto("/members");
  await admin.getByRole("link", { name: "member", exact: true }).first().click();
  const note = `Goodwill ${Date.now()}`;
  const grant = admin.getByRole("form", { name: "Grant notarize credits" });
  await grant.getByLabel("Credits to grant").fill("2");
  await grant.getByLabel(/^Why/).fill(note);
  await grant.getByRole("button", { name: "Grant credits" }).click();
  await expect(admin.getByText(/2 notarize credits granted to member, who now has \d+\./)).toBeVisible();
  await expect(admin.getByRole("row", { name: new RegExp(note) })).toBeVisible();
  await expect(admin.getByRole("row", { name: /Granted notarize credits/ }).first()).toBeVisible();

  expect(await balanceOn(page)).toBeGreaterThanOrEqual(before + 2);
  await expect(page.getByRole("row", { name: new RegExp(`Granted by an admin \\+2 ${note}`) })).toBeVisible();
});
