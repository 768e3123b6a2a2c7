import { expect, test } from "./fixtures";
import { saveRoundOne } from "./round-one";

/** Statuses, keys and actions read as words on the pages; the codes stay in the exports. */

test("the notarize status says where the notice is in words, without the notary's code", async ({ page, signIn }) => {
  test.setTimeout(60_000);
  await signIn("creator");
  const version = `Words ${Date.now()}`;
  await saveRoundOne(page, version, "Willa Words", "100");
  await page.goto(`/nol/creator/traffic-stop/notarize?version=${encodeURIComponent(version)}`);
  await expect(page.getByText("Preparing the preview…")).toHaveCount(0);
  await page.getByRole("button", { name: "Notarize online" }).click();
  const status = page.getByTestId("notarize-status");
  await expect(status).toHaveText("Sent: waiting for you to sign");
  await expect(page.locator("p").filter({ has: status })).toHaveText("Status: Sent: waiting for you to sign");
  await expect(page.getByText(/sent_to_signer/)).toHaveCount(0);

  // The notices' table is a labelled box the keyboard can reach; the notice at hand is marked.
  const box = page.getByRole("region", { name: "Your notices of this cause" });
  await expect(box).toHaveAttribute("tabindex", "0");
  const current = box.locator('tr[aria-current="true"]');
  await expect(current.getByRole("rowheader")).toHaveText("Round 1");
  await expect(current).toContainText("Sent: waiting for you to sign");
});

test("an admin reads memberships, plans, roles, cause statuses and audit actions as words", async ({
  page,
  signIn,
  pageAs,
}) => {
  test.setTimeout(90_000);
  const creator = await pageAs("creator");
  const version = `Audited ${Date.now()}`;
  await saveRoundOne(creator, version, "Ada Audit", "100");

  await signIn("admin");
  await page.goto("/members?q=creator");
  const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "creator", exact: true }) });
  const cells = await row.getByRole("cell").allTextContents();
  expect(cells).toContain("Active");
  expect(cells).toContain("Supporter membership");
  expect(cells).toContain("NoL creator");
  expect(cells).toContain("United States");
  expect(cells.join(" ")).not.toMatch(/ACTIVE|supporter\b/);
  const membership = page.getByRole("search", { name: "Members" }).getByLabel("Membership");
  await expect(membership.locator("option")).toContainText(["Any", "Active", "Trial", "Payment overdue"]);

  // The creator's page: the membership, the cause of a version, and what they did.
  await row.getByRole("link", { name: "creator", exact: true }).click();
  await expect(page.getByRole("row", { name: /^Membership Active/ })).toBeVisible();
  await expect(page.getByRole("row", { name: /^Status Active$/ })).toBeVisible();
  const entries = page.getByRole("region", { name: "NoL entries" });
  await expect(entries.getByRole("cell", { name: `Traffic Stop · ${version}`, exact: true })).toBeVisible();
  await expect(entries.getByText(`TS · ${version}`)).toHaveCount(0);
  const trail = page.getByRole("region", { name: "Audit trail" });
  await expect(trail.getByRole("row", { name: /Saved a notice/ }).first()).toBeVisible();
  await expect(trail.getByText(/nol\.step\./)).toHaveCount(0);

  // The dashboard and the data browser say the same; the CSV keeps the codes.
  await page.goto("/admin");
  await expect(page.getByRole("link", { name: /^Active: \d+$/ })).toBeVisible();
  await page.goto("/db/audit_log?action=nol.step.notice");
  await expect(page.getByRole("table").getByRole("link", { name: "Saved a notice" }).first()).toBeVisible();
  await page.goto("/db/subscriptions");
  await expect(page.getByRole("table").getByRole("cell", { name: "Active", exact: true }).first()).toBeVisible();
  const csv = await page.request.get("/db/subscriptions/export.csv");
  expect(await csv.text()).toContain(",ACTIVE,");

  // The cause catalogue: its statuses as the spec words them, no feature key.
  await page.goto("/causes");
  await expect(page.getByText("(AllowNotarizeOnline)")).toHaveCount(0);
  await expect(page.getByLabel("New versions may be notarized online").first()).toBeVisible();
  const offered = page.getByLabel("United States").first().locator("option");
  await expect(offered).toHaveText(["Not offered", "Available (live)", "Testing", "Started (beta)"]);
});

test("a reassessment request reads as the form asked it, without the directory's keys", async ({
  page,
  signIn,
  pageAs,
}) => {
  test.setTimeout(60_000);
  const member = await pageAs("member");
  const reason = `The office moved ${Date.now()}`;
  await member.goto("/respondent-reassessment");
  await member.getByLabel("Respondent", { exact: true }).selectOption({ label: "Judge Example (Capital City, US)" });
  await member.getByLabel("What should be reassessed").fill(reason);
  await member.getByRole("button", { name: "Send the request" }).click();
  await expect(member.getByText(/waits for an admin's review/)).toBeVisible();

  await signIn("admin");
  await page.goto("/respondents/review");
  const request = page.getByRole("article").filter({ hasText: reason });
  await expect(request.getByRole("heading")).toHaveText(/^Reassessment #\d+: Judge Example$/);
  const terms = await request.locator("dt").allTextContents();
  expect(terms).toEqual(["Respondent", "What should be reassessed"]);
  await expect(request.getByText(/respondentId|respondentName/)).toHaveCount(0);
});
