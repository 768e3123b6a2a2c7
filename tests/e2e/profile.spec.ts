import { expect, test } from "./fixtures";
import { openOutbox, payWithCard, signUpToMembership } from "./new-member";

// The wrong current password is answered 400, as every refused form is.
test.use({ expectedConsoleErrors: [/status of 400/] });

test("a member changes their name, e-mail (confirmed from the outbox) and password, and logs out their other session", async ({
  page,
  pageAs,
  browser,
}) => {
  test.setTimeout(120_000);
  const admin = await pageAs("admin");
  const { username, email } = await signUpToMembership(page, admin);
  await page.getByLabel(/Monthly membership/).check();
  await page.getByRole("button", { name: "Continue to payment" }).click();
  await payWithCard(page, "4242 4242 4242 4242");
  await expect(page.getByText("Thank you: your membership is active.")).toBeVisible();

  // A second browser signed in as the same member: the session to log out later.
  const other = await browser.newContext();
  const phone = await other.newPage();
  await phone.goto("/login");
  await phone.getByLabel("Username or e-mail").fill(username);
  await phone.getByLabel("Password").fill("a very private phrase");
  await phone.getByRole("button", { name: "Log in" }).click();
  await expect(phone.getByRole("heading", { name: `Welcome, ${username}` })).toBeVisible();

  await page.goto("/profile");
  await expect(
    page.getByRole("navigation", { name: "Profile" }).getByRole("link", { name: "Account" }),
  ).toHaveAttribute("aria-current", "page");
  await page.getByLabel("Name", { exact: true }).fill("Erin Renamed");
  await page.getByRole("button", { name: "Save the name" }).click();
  await expect(page.getByText("Your name is saved.")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Erin Renamed");

  const next = `new-${email}`;
  await page.getByLabel("New e-mail address").fill(next);
  await page.getByRole("button", { name: "Send the confirmation link" }).click();
  await expect(page.getByText(`We sent a link to ${next}.`)).toBeVisible();
  await openOutbox(admin, { to: next });
  await admin
    .getByRole("row", { name: new RegExp(next.replace(/[.+]/g, "\\$&")) })
    .getByRole("link", { name: "Confirm your new e-mail address" })
    .click();
  const link = admin.getByRole("link", { name: /\/signup\/verify\?token=/ });
  const href = new URL((await link.getAttribute("href"))!);
  await page.goto(href.pathname + href.search);
  await page.goto("/profile");
  await expect(page.getByText(next, { exact: true })).toBeVisible();

  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password", { exact: true }).fill("violet orbit lantern 42");
  await page.getByLabel("New password again").fill("violet orbit lantern 42");
  await page.getByRole("button", { name: "Change the password" }).click();
  await expect(page.getByText("That is not your current password")).toBeVisible();
  await page.getByLabel("Current password").fill("a very private phrase");
  await page.getByLabel("New password", { exact: true }).fill("violet orbit lantern 42");
  await page.getByLabel("New password again").fill("violet orbit lantern 42");
  await page.getByRole("button", { name: "Change the password" }).click();
  await expect(page.getByText("Your password is changed.")).toBeVisible();

  // The password change ended the other session; sign it in again, then log it out from here.
  await phone.goto("/profile");
  await expect(phone).toHaveURL(/\/login/);
  await phone.getByLabel("Username or e-mail").fill(username);
  await phone.getByLabel("Password").fill("violet orbit lantern 42");
  await phone.getByRole("button", { name: "Log in" }).click();
  await expect(phone.getByRole("heading", { level: 1, name: username })).toBeVisible();

  await page.getByRole("link", { name: "Security" }).click();
  await expect(page.getByRole("table", { name: "Your sessions" }).getByRole("row")).toHaveCount(3);
  await page.getByRole("button", { name: "Log out other sessions" }).click();
  await expect(page.getByText("Your other sessions are logged out.")).toBeVisible();
  await expect(page.getByText("You are signed in on this device only.")).toBeVisible();
  await phone.goto("/profile");
  await expect(phone).toHaveURL(/\/login/);
  await other.close();
});
