import os from "node:os";
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { saveRoundOne } from "./round-one";

/**
 * The admins' pages in words: no cron line, host name, API path in a page's opening, raw id or
 * ISO day where a person reads, and the plans offered are the plans a member can be on.
 */

const ISO_DAY = /\b\d{4}-\d{2}-\d{2}\b/;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const CRON = /(^|\s)[\d*/,-]+( [\d*/,-]+){4}(\s|$)/;
const HOST = new RegExp(`\\b${os.hostname().replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`);

/** Members of the scale seed no other test uses: without a membership, not NoL creators. */
const COMPLIMENTARY_TO = "sm000903";
const MADE_CREATORS = ["sm000904", "sm000908"];

/** A day some days from today, as a date field takes it and as the pages write it. */
function day(offset: number) {
  const date = new Date(Date.now() + offset * 86_400_000);
  return {
    iso: date.toISOString().slice(0, 10),
    shown: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(date),
  };
}

const mainText = (page: Page) => page.getByRole("main").innerText();

/** How many lines a cell's text takes on the screen. */
const linesOf = (cell: Locator) =>
  cell.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    return tops.size;
  });

test("the community settings are titled for what they hold, with no API path in their opening words", async ({
  page,
  signIn,
}) => {
  await signIn("admin");
  await page.goto("/admin/settings");
  await expect(page).toHaveTitle("Community settings");
  await expect(page.getByRole("heading", { level: 1, name: "Community settings" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Community links" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Mailing from the app" })).toBeVisible();
  // The page's words but its help for operators, which may name the API.
  const opening = await page.getByRole("main").evaluate((main) => {
    const copy = main.cloneNode(true) as HTMLElement;
    copy.querySelectorAll("details").forEach((details) => details.remove());
    return copy.textContent ?? "";
  });
  expect(opening).not.toMatch(/\/api\//);
  const help = page.locator("details").filter({ hasText: "operator" });
  await help.locator("summary").click();
  await expect(help).toContainText("/api/config/causes");
  expect(await mainText(page)).not.toMatch(UUID);
});

test("the backups page says when backups are made in words, names no host, its banner goes once the backup is done, and a test restore says what it found", async ({
  page,
  signIn,
}) => {
  test.setTimeout(240_000);
  await signIn("admin");
  await page.goto("/admin/backups");
  await expect(page.getByText(/made automatically every day at 03:17 UTC/)).toBeVisible();
  let shown = await mainText(page);
  expect(shown).not.toMatch(CRON);
  expect(shown).not.toMatch(HOST);

  await page.getByRole("button", { name: "Make a backup now" }).click();
  const table = page.getByRole("table", { name: "Backups kept" });
  // The page follows the backup by itself; once it is done, nothing says it is under way.
  await expect(table.getByRole("row").nth(1)).toContainText("Done", { timeout: 60_000 });
  await expect(page.getByText(/under way/i)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Make a backup now" })).toBeVisible();
  shown = await mainText(page);
  expect(shown).not.toMatch(HOST);
  expect(shown).not.toMatch(ISO_DAY);
  // The day and time read on one line, however long the file's fingerprint.
  expect(await linesOf(table.getByRole("row").nth(1).getByRole("cell").first())).toBe(1);
  await expect(table.getByRole("row").nth(1)).toContainText("On the server");
  await expect(page.getByText("None has been made yet.")).toBeVisible();

  // A test restore: a backup made, restored into a scratch database in the background, its rows
  // counted against the database's and the kept file read back.
  await page.getByRole("button", { name: "Make a backup and test-restore it" }).click();
  const newest = table.getByRole("row").nth(1);
  await expect(newest).toContainText("Passed", { timeout: 120_000 });
  await expect(newest).toContainText(
    /Restored with the same rows \(\d+ tables, [\d,]+ rows[^)]*\); the kept copy read back unchanged\./,
  );
  await expect(page.getByText(/The last one, of .+: passed\./)).toBeVisible();
});

test("the audit log names the member viewed, the version saved and the members a bulk change reached", async ({
  page,
  signIn,
  pageAs,
}) => {
  test.setTimeout(90_000);
  const creator = await pageAs("creator");
  const version = `Audited ${Date.now()}`;
  await saveRoundOne(creator, version, "Abe Audit", "100");
  await signIn("admin");
  // Viewing a member's page is audited.
  await page.goto(`/members?${new URLSearchParams({ q: COMPLIMENTARY_TO })}`);
  await page.getByRole("link", { name: COMPLIMENTARY_TO, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: COMPLIMENTARY_TO })).toBeVisible();

  // A bulk role change says whom it changed, and so does its audit entry.
  await page.goto("/members?q=sm00090");
  for (const username of MADE_CREATORS) await page.getByLabel(`Choose ${username}`).check();
  await page.getByLabel("What to do").selectOption({ label: "Make NoL creator" });
  await page.getByRole("button", { name: "Do it" }).click();
  await expect(page.getByText(`2 members became NoL creator: ${MADE_CREATORS.join(" and ")}.`)).toBeVisible();

  await page.goto("/db/audit_log?action=members.view");
  const viewed = page
    .getByRole("row")
    .filter({ hasText: "Viewed a member's page" })
    .filter({ has: page.getByRole("link", { name: COMPLIMENTARY_TO, exact: true }) })
    .first();
  await expect(viewed.getByRole("link", { name: COMPLIMENTARY_TO, exact: true })).toHaveAttribute(
    "href",
    /^\/members\/[0-9a-f-]{36}$/,
  );
  expect(await page.getByRole("table").innerText()).not.toMatch(UUID);

  await page.goto("/db/audit_log?action=members.bulk.set-nolCreator");
  await expect(
    page
      .getByRole("row")
      .filter({ hasText: `2 members: ${MADE_CREATORS.join(" and ")}` })
      .first(),
  ).toBeVisible();

  // A saved step names its member, cause, version and round, the creator's link opening their page.
  await page.goto("/db/audit_log?action=nol.step.notice");
  const saved = page.getByRole("row").filter({ hasText: `“${version}”` });
  await expect(saved).toContainText(`Saved a notice`);
  await expect(saved).toContainText(`creator's Traffic Stop version “${version}”, Round 1`);
  await expect(saved.getByRole("link", { name: /^creator's/ })).toHaveAttribute("href", /^\/members\/[0-9a-f-]{36}$/);
  const table = await page.getByRole("table").innerText();
  expect(table).not.toMatch(UUID);
  expect(table).not.toMatch(/nol_entry|\b\d+-\d+\b/);

  // Back as they were.
  await page.goto("/members?q=sm00090");
  for (const username of MADE_CREATORS) await page.getByLabel(`Choose ${username}`).check();
  await page.getByLabel("What to do").selectOption({ label: "Remove NoL creator" });
  await page.getByRole("button", { name: "Do it" }).click();
  await expect(page.getByText(`2 members are no longer NoL creator: ${MADE_CREATORS.join(" and ")}.`)).toBeVisible();
});

test("the members page offers membership plans only, its search hint fits, and a complimentary membership ends on its day", async ({
  page,
  signIn,
}) => {
  test.setTimeout(60_000);
  await signIn("admin");
  await page.goto("/members");
  for (const select of [page.getByLabel("Plan", { exact: true }), page.getByLabel("Complimentary plan")]) {
    const options = (await select.locator("option").allTextContents()).filter((o) => o !== "Any" && o !== "Choose…");
    expect(options.length).toBeGreaterThan(0);
    for (const option of options) expect(option).toMatch(/membership$/);
    expect(options).not.toContain("Donation");
    expect(options).not.toContain("Notarize credit");
  }
  // The search field's hint is read whole: it fits the field.
  const search = page.getByLabel("Find a member");
  const fits = await search.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = style.font;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(input.placeholder).width <= room;
  });
  expect(fits).toBe(true);
  expect(await mainText(page)).not.toMatch(ISO_DAY);
  expect(await mainText(page)).not.toMatch(UUID);

  // A complimentary membership with an end date ends on it: it does not renew.
  const ends = day(40);
  await page.goto(`/members?${new URLSearchParams({ q: COMPLIMENTARY_TO })}`);
  await page.getByRole("link", { name: COMPLIMENTARY_TO, exact: true }).click();
  const grant = page.getByRole("form", { name: "Grant a complimentary membership" });
  await grant.getByLabel("Plan").selectOption({ label: "Monthly membership" });
  await grant.getByLabel(/^Ends on/).fill(ends.iso);
  await grant.getByRole("button", { name: "Grant" }).click();
  await expect(
    page.getByText(`${COMPLIMENTARY_TO} has the Monthly membership as a complimentary membership until ${ends.shown}.`),
  ).toBeVisible();
  const billing = page.getByRole("region", { name: "Billing", exact: true });
  await expect(billing.getByRole("row", { name: /At the period's end/ })).toContainText(`Ends on ${ends.shown}`);
  await expect(billing).not.toContainText("Renews");

  // Back as it was.
  await page.getByRole("button", { name: "End it now" }).click();
  await page.getByRole("button", { name: "Click again to end it" }).click();
  await expect(billing.getByRole("row", { name: /At the period's end/ })).not.toContainText("Ends on");
});
