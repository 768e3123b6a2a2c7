import { expect, test } from "./fixtures";
import { fillProfileStep, payWithCard, signUpAndConfirm } from "./new-member";
import { expectNothingCutOff, expectPlansFullWidth } from "./on-screen";

test.describe("a new member's way from an offer to a membership", () => {
  test("a landing page's Subscribe signs the visitor up, then goes straight to that plan's payment with the offer", async ({
    page,
    pageAs,
  }) => {
    await page.goto("/c/welcome");
    await page.getByRole("link", { name: "Subscribe: Monthly membership" }).click();
    await expect(page.getByRole("heading", { name: "Sign up" })).toBeVisible();
    await signUpAndConfirm(page, await pageAs("admin"));
    await fillProfileStep(page);
    await expect(page.getByRole("heading", { name: "Pay by card" })).toBeVisible();
    await expect(page.getByText("Monthly membership: $20.00 $18.00 for the first month")).toBeVisible();
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByText("Thank you: your membership is active.")).toBeVisible();
  });

  test("a visitor choosing a membership on /subscription is sent to sign up, the plan kept", async ({ page }) => {
    await page.goto("/subscription?plan=annual");
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await expect(page.getByRole("heading", { name: "Sign up" })).toBeVisible();
    await expect(page).toHaveURL(/\/signup\?plan=annual$/);
  });

  test("setup's membership step says what each plan includes and prices it with the offer", async ({
    page,
    pageAs,
  }) => {
    await page.goto("/c/welcome");
    await page.goto("/signup");
    await signUpAndConfirm(page, await pageAs("admin"));
    await fillProfileStep(page);
    await expect(page.getByRole("heading", { name: "Membership" })).toBeVisible();
    await expect(
      page.getByRole("radio", { name: "Monthly membership — was $20.00 $18.00 a month, then $20.00 a month" }),
    ).toBeVisible();
    await expect(page.getByRole("radio", { name: /^Supporter membership/ })).toHaveAccessibleDescription(
      /without the NoL creator/,
    );
    await expect(page.getByText("is applied at checkout")).toHaveCount(0);

    // On a phone the plans read the card's width and nothing is cut off at the side.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectPlansFullWidth(page.getByRole("group", { name: "Membership" }));
    await expectNothingCutOff(page, "setup's membership step on a phone");
  });

  test("a signed-in account is not asked to log in on a landing page", async ({ page, signIn }) => {
    await signIn("newbie");
    await page.goto("/c/welcome");
    await expect(page.getByRole("heading", { name: "Welcome! Your first payment is 10% off." })).toBeVisible();
    await expect(page.getByText("Already a member?")).toHaveCount(0);
  });
});
