import { expect, test } from "./fixtures";

test("an admin filters members, sorts, pages, exports, opens a member, logs out a session and sees it in the audit trail", async ({
  page,
  signIn,
}) => {
  test.setTimeout(90_000);
  await signIn("admin");
  await page.goto("/members");
  const filters = page.getByRole("search", { name: "Members" });
  await filters.getByLabel("Membership").selectOption("ACTIVE");
  await filters.getByLabel("Country").selectOption({ label: "Canada" });
  await filters.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/status=ACTIVE/);
  await expect(page).toHaveURL(/country=CA/);
  const status = page.getByRole("status").filter({ hasText: /members? match/ });
  await expect(status).toHaveText(/^\d+ members match$/);

  // Sorted by username, A to Z.
  await page.getByRole("link", { name: /^Username\b.*sort ascending/ }).click();
  await expect(page).toHaveURL(/sort=username&dir=asc/);
  const table = page.getByRole("table");
  await expect(table.getByRole("columnheader", { name: /Username/ })).toHaveAttribute("aria-sort", "ascending");
  const firstNames = await table.locator("tbody tr td:nth-child(2)").allTextContents();
  expect(firstNames).toEqual([...firstNames].sort());
  expect(firstNames.length).toBe(50);

  // Forward, then back to the same first page.
  await page.getByRole("link", { name: "Next page" }).click();
  await expect(page).toHaveURL(/after=/);
  // The address changes as the new page renders: read the rows once they are the next page's.
  await expect(table.locator("tbody tr td:nth-child(2)").first()).not.toHaveText(firstNames[0]!);
  const secondNames = await table.locator("tbody tr td:nth-child(2)").allTextContents();
  expect(secondNames[0]! > firstNames.at(-1)!).toBe(true);
  await page.getByRole("link", { name: "Previous page" }).click();
  await expect(page).toHaveURL(/before=/);
  await expect(table.locator("tbody tr td:nth-child(2)").first()).toHaveText(firstNames[0]!);
  expect(await table.locator("tbody tr td:nth-child(2)").allTextContents()).toEqual(firstNames);

  // The export, with its progress, as a file.
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export these members as CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^members-\d{4}-\d{2}-\d{2}\.csv$/);
  await expect(page.getByText(/^Exported \d+ members\.$/)).toBeVisible();
  const csv = await (await download.createReadStream()).toArray();
  const lines = Buffer.concat(csv).toString("utf8").trimEnd().split("\r\n");
  expect(lines[0]).toMatch(/^id,Username,E-mail,/);
  expect(lines.slice(1).every((l) => l.includes(",ACTIVE,") && l.includes(",CA,"))).toBe(true);

  // One member: log out one of their sessions, then find it in their audit trail.
  await page.getByRole("link", { name: "sm000051" }).click();
  await expect(page.getByRole("heading", { name: "sm000051" })).toBeVisible();
  const sessions = page.getByRole("region", { name: "Sessions" });
  const logOut = sessions.getByRole("button", { name: /^Log out the session/ });
  const open = await logOut.count();
  expect(open).toBeGreaterThan(0);
  await logOut.first().click();
  await expect(page.getByText("That session of sm000051 is logged out.")).toBeVisible();
  await expect(logOut).toHaveCount(open - 1);
  const trail = page.getByRole("region", { name: "Audit trail" });
  await expect(trail.getByRole("row", { name: /admin.*Logged out a member's session/ })).toBeVisible();
});
