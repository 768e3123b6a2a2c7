import { expect, test } from "./fixtures";
import { day, deliverRoundOne, saveRoundOne } from "./round-one";

/** Statuses, keys and actions read as words on the pages; the codes stay in the exports. */

/** A day in ISO form ("2026-03-02"), which no page shows a member. */
const ISO_DAY = /\b\d{4}-\d{2}-\d{2}\b/;

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
  await expect(current.getByRole("rowheader")).toHaveText(`Round 1 ${version}`);
  await expect(current).toContainText("Sent: waiting for you to sign");
});

test("a version's page, its timeline and its answers name the rounds, days and proofs in words", async ({
  page,
  signIn,
}) => {
  test.setTimeout(60_000);
  await signIn("creator");
  const version = `Worded ${Date.now()}`;
  await saveRoundOne(page, version, "Wren Words", "100");
  await deliverRoundOne(page, version);
  await page.goto(`/nol/creator/traffic-stop?version=${encodeURIComponent(version)}`);

  // The notice creator's entry is named by its notice, and each Notarize says what it notarizes.
  const card = page.locator("article.version").filter({ hasText: version });
  await expect(card.getByRole("listitem")).toHaveText("Round 1 Notice of Liability · view your answers");
  await expect(card.getByRole("link", { name: "Notarize the notice online" })).toBeVisible();
  const timeline = page.getByRole("region", { name: `Timeline: ${version}` });
  await expect(timeline.getByRole("button", { name: /^Notarize the proof of service online/ })).toHaveText(
    "Notarize the proof of service online",
  );
  const shown = await page.getByRole("main").innerText();
  expect(shown).not.toContain("NoL Creator");
  expect(shown).not.toMatch(ISO_DAY);
  expect(shown).not.toMatch(/^Notarize online$/m);

  // Its answers: the days as every page writes them, the proof of delivery in words.
  await card.getByRole("link", { name: "Round 1 Notice of Liability: view your answers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Round 1 Notice of Liability" })).toBeVisible();
  await expect(
    page.getByRole("row", { name: new RegExp(`^Round 1 Notice of Liability ${day().shown} Arrived`) }),
  ).toBeVisible();
  const answers = await page.getByRole("main").innerText();
  expect(answers).not.toMatch(ISO_DAY);
  expect(answers).not.toMatch(/\b(yes|no|true|false)\b/i);
  expect(answers).not.toContain("NoL Creator");
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
  await expect(entries.getByRole("cell", { name: "Round 1 Notice of Liability", exact: true }).first()).toBeVisible();
  await expect(entries).not.toContainText("NoL Creator");
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

  // The card on file, as its network writes its name.
  await creator.goto("/profile/billing");
  await expect(creator.getByRole("row", { name: /Card on file/ })).toContainText("Visa ending in 4242");

  // Document templates: rounds picked and listed by name, not by number.
  await page.goto("/admin/templates");
  const round = page.getByLabel("Round", { exact: true });
  await expect(round.locator("option").nth(1)).toHaveText("Round 1 Notice of Liability");
  await expect(round.locator("option").nth(4)).toHaveText("First True Bill");
  await expect(round.locator("option", { hasText: /^\d+$/ })).toHaveCount(0);
  expect(await page.getByRole("table", { name: "Templates in use" }).innerText()).not.toMatch(/round \d/i);

  // The cause catalogue: its statuses as the spec words them, no feature key, no form number.
  await page.goto("/causes");
  await expect(
    page.getByText("Every cause uses the NoL forms: the notice creator, the billing profile and the true bills."),
  ).toBeVisible();
  expect(await page.getByRole("main").innerText()).not.toMatch(/\b(187|189|194)\b/);
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
