import { expect, test } from "./fixtures";
import { payWithCard, signUpToMembership } from "./new-member";

const INCLUDED = "The NoL creator comes with the Monthly membership or the Annual membership.";

test.describe("the way to the NoL creator, told alike everywhere", () => {
  test("a supporter is told which plans include the creator, with an upgrade, on every page that lacks it", async ({
    page,
    signIn,
  }) => {
    await signIn("member");
    for (const path of [
      "/",
      "/subscription",
      "/nol/creator",
      "/nol/creator/traffic-stop",
      "/nol/creator/traffic-stop/notarize",
    ]) {
      await page.goto(path);
      await expect(page.getByText(INCLUDED), path).toBeVisible();
      await expect(
        page.getByRole("button", { name: "Upgrade to the Monthly membership ($20.00 a month)" }),
        path,
      ).toBeVisible();
      await expect(page.getByText("Ask an admin to open it")).toHaveCount(0);
    }
    await expect(page).toHaveURL(/\/nol\/creator$/);
  });

  test("an admin without the creator is shown their own member page's flag", async ({ page, signIn }) => {
    await signIn("admin");
    await page.goto("/nol/creator");
    await expect(page.getByText("As an admin, you open it yourself")).toBeVisible();
    await expect(page.getByRole("link", { name: "your member page" })).toHaveAttribute("href", /^\/members\/[\w-]+$/);
    await expect(page.getByText("Ask an admin to open it")).toHaveCount(0);
  });

  test("a supporter's upgrade changes the plan, prorated, and opens the creator", async ({ page, pageAs }) => {
    await signUpToMembership(page, await pageAs("admin"));
    await page.getByLabel(/Supporter membership/).check();
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await payWithCard(page, "4242 4242 4242 4242");
    await expect(page.getByText("Thank you: your membership is active.")).toBeVisible();
    await page.goto("/nol/creator");
    await page.getByRole("button", { name: "Upgrade to the Annual membership ($200.00 a year)" }).click();
    await expect(page.getByText("Your membership is now the Annual membership.")).toBeVisible();
    await page.goto("/nol/creator");
    await expect(page.getByText(INCLUDED)).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Traffic Stop" })).toBeVisible();
  });
});
