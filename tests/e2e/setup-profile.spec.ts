import { expect, test } from "./fixtures";
import { signUpToMembership } from "./new-member";

test("the home warning's profile button takes a member on setup's membership step to their profile", async ({
  page,
  pageAs,
}) => {
  const admin = await pageAs("admin");
  await signUpToMembership(page, admin);

  await page.goto("/");
  await expect(page.getByText("Your account is not ready yet")).toBeVisible();
  await page.getByRole("link", { name: "Your profile" }).click();

  await expect(page).toHaveURL(/\/setup\/profile$/);
  await expect(page.getByRole("heading", { name: "Your details" })).toBeVisible();
  await expect(page.getByLabel("Your name")).toHaveValue("Erin Example");
  await expect(page.getByLabel("Country")).toHaveValue("CA");

  // Saving it goes on to the step the member had reached.
  await page.getByLabel("Your name").fill("Erin Edited");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Membership" })).toBeVisible();
});
