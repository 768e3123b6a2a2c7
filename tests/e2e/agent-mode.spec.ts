import { expect, test } from "./fixtures";

test("an admin representing a member sees the navigation the member sees, and the banner's way back", async ({
  page,
  signIn,
}) => {
  // A member of the scale seed that no other test represents.
  const member = "sm000778";
  await signIn("admin");
  await page.goto("/");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Members" })).toBeVisible();

  await page.goto("/admin");
  await page.getByLabel("Username").fill(member);
  await page.getByRole("button", { name: "Represent" }).click();
  await expect(page.getByText(`You are now representing ${member}.`)).toBeVisible();

  await page.goto("/");
  await expect(page.getByRole("status").filter({ hasText: `WARNING, representing: ${member}` })).toBeVisible();
  await expect(nav.getByRole("link", { name: member })).toBeVisible();
  await expect(nav.getByText(`${member}@scale.example`)).toBeVisible();
  await expect(nav.getByRole("link", { name: "Members" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Coupons" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Admin", exact: true })).toHaveCount(0);

  await page.getByRole("button", { name: "Stop representing" }).click();
  await expect(page.getByText("You are yourself again.")).toBeVisible();
  await page.goto("/");
  await expect(nav.getByRole("link", { name: "Members" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Admin", exact: true })).toBeVisible();
});
