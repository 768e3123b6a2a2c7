import { expect, test } from "./fixtures";
import { openOutbox, payWithCard, signUpToMembership } from "./new-member";

test.describe("paying on the sandbox", () => {
  test("the 3-D Secure card passes its extra confirmation step", async ({ page, pageAs }) => {
    await signUpToMembership(page, await pageAs("admin"));
    await page.getByLabel(/Annual membership/).check();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await payWithCard(page, "4000 0025 0000 3155");
    await expect(page.getByRole("heading", { name: "Confirm this payment" })).toBeVisible();
    await expect(page.getByText("Annual membership: $200.00 for the first year")).toBeVisible();
    await page.getByRole("button", { name: "Complete authentication" }).click();
    await expect(page.getByText("Thank you: your membership is active.")).toBeVisible();
  });

  test("a member who came through an offer's landing page pays 80 % with its 20 % coupon", async ({ page, pageAs }) => {
    await page.goto("/c/members-friends");
    await expect(page.getByText("20% off every payment").first()).toBeVisible();
    await signUpToMembership(page, await pageAs("admin"));
    await expect(page.getByText("the prices below include it")).toBeVisible();
    await page.getByLabel(/Monthly membership/).check();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByText("Monthly membership: $20.00 $16.00 for the first month")).toBeVisible();
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByText("Thank you: your membership is active.")).toBeVisible();
    await expect(page.getByText("Monthly membership: $20.00 $16.00")).toBeVisible();
  });

  test("a visitor's donation gets a receipt in the outbox", async ({ page, pageAs }) => {
    const email = `giver${Date.now().toString(36)}@example.org`;
    await page.goto("/subscription");
    await page.getByRole("radio", { name: /^Donation/ }).check();
    await page.getByLabel("Donation amount (USD), for a donation").fill("35");
    await page.getByLabel("Your e-mail, for the receipt").fill(email);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByText("Donation: $35.00")).toBeVisible();
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByText("Thank you for your donation")).toBeVisible();
    await expect(page.getByRole("link", { name: "Continue signup" })).toHaveAttribute(
      "href",
      `/signup?email=${encodeURIComponent(email)}`,
    );

    // Home asks the visitor to continue signup with the payment's e-mail (spec §2.4).
    await page.goto("/");
    await expect(page.getByText(`Your donation of $35.00 is recorded under ${email}`)).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Continue signup" }).click();
    await expect(page.getByLabel("E-mail address")).toHaveValue(email);

    // The receipt goes out from a background job: the admin's outbox shows it once sent.
    const admin = await pageAs("admin");
    await expect(async () => {
      await openOutbox(admin, { to: email });
      await expect(admin.getByRole("row", { name: new RegExp(email) })).toContainText("Your receipt from");
    }).toPass({ timeout: 20_000 });
  });
});
