import { expect, test } from "./fixtures";

/** An address as the server reads it: IPv4, IPv6 or IPv4 in IPv6. */
const ADDRESS = /^[0-9a-f]*:[0-9a-f:.]*$|^\d{1,3}(\.\d{1,3}){3}$/i;

test("the audit log names who acted, whom they represented and the address, each member opening their page", async ({
  page,
  signIn,
}) => {
  test.setTimeout(60_000);
  // A member of the scale seed that no other test represents.
  const member = "sm000777";
  await signIn("admin");
  await page.goto("/admin");
  await page.getByLabel("Username").fill(member);
  await page.getByRole("button", { name: "Represent" }).click();
  await expect(page.getByText(`You are now representing ${member}.`)).toBeVisible();
  await page.goto("/admin");
  // The banner and the admin page both offer it.
  await page.getByRole("button", { name: "Stop representing" }).first().click();
  await expect(page.getByText("You are yourself again.")).toBeVisible();

  await page.goto(`/db/audit_log?action=agent.start&agent=${member}`);
  const table = page.getByRole("table");
  await expect(table.getByRole("columnheader", { name: "Who" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Representing" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Address" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: /Actor user id/ })).toHaveCount(0);
  const row = table.getByRole("row").filter({ hasText: "Began representing a member" }).first();
  const cells = row.getByRole("cell");
  const headers = await table.getByRole("columnheader").allTextContents();
  const at = (name: string) => headers.findIndex((h) => h.startsWith(name));
  await expect(cells.nth(at("Who")).getByRole("link", { name: "admin", exact: true })).toHaveAttribute(
    "href",
    /^\/members\/[0-9a-f-]{36}$/,
  );
  await expect(cells.nth(at("Address"))).toHaveText(ADDRESS);

  // The represented member's link opens their page, whose audit trail says the same.
  await cells.nth(at("Representing")).getByRole("link", { name: member }).click();
  await expect(page.getByRole("heading", { name: member })).toBeVisible();
  const trail = page.getByRole("region", { name: "Audit trail" });
  const started = trail.getByRole("row").filter({ hasText: "Began representing a member" }).first();
  await expect(started.getByRole("cell").nth(1)).toHaveText(`admin as ${member}`);
  await expect(started.getByRole("link", { name: "admin", exact: true })).toHaveAttribute(
    "href",
    /^\/members\/[0-9a-f-]{36}$/,
  );
  await expect(started.getByRole("cell").nth(3)).toHaveText(ADDRESS);
  const stopped = trail.getByRole("row").filter({ hasText: "Stopped representing a member" }).first();
  await expect(stopped.getByRole("cell").nth(3)).toHaveText(ADDRESS);

  // The admin's name opens the admin's page.
  await started.getByRole("link", { name: "admin", exact: true }).click();
  await expect(page.getByRole("heading", { name: "admin", exact: true })).toBeVisible();
});
