import { inflateRawSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { newDataDir, startServer } from "../helpers/server";
import { DEMO_PASSWORD, expect, submitLogin, test } from "./fixtures";
import { openOutbox } from "./new-member";
import { pageOn, SHIFTED_CLOCK } from "./own-server";
import { saveRoundOne } from "./round-one";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The erasure sweep's cron line is "23 * * * *": the later server starts a few seconds past its minute. */
const SWEEP_MINUTE_MS = 23 * 60_000;
const PAST_THE_MINUTE_MS = 3_000;

/** The files of a ZIP archive by name, read from its central directory. */
function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error("not a ZIP file: no end of central directory");
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`no central directory entry at ${at}`);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const name = zip.toString("utf8", at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + compressed);
    files.set(name, method === 8 ? inflateRawSync(data) : Buffer.from(data));
    at += 46 + skip;
  }
  return files;
}

/** Deletes the signed-in member's account, confirmed with the password. */
async function deleteAccount(page: Page) {
  await page.goto("/profile/delete");
  await page.getByLabel("Your password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText(/Your account is deleted and you are logged out/)).toBeVisible();
}

// Two servers of their own, one after the other on one data directory: the member asks for
// their data and deletes their account on the first; the second starts past the grace period,
// when the hourly erasure sweep comes due.
test("a member downloads their data, deletes the account, keeps it at login, deletes it again, and after the grace period the erasure leaves no login and no page of theirs", async ({
  browser,
}) => {
  // Some 35 s alone; two servers of its own take longer while the other workers run.
  test.setTimeout(120_000);
  const dataDir = newDataDir({});
  const member = "creator";
  const email = `${member}@memberhall.example`;
  let memberPath = "";

  const today = await startServer({ dataDir });
  try {
    const page = await pageOn(browser, today, member);
    const admin = await pageOn(browser, today, "admin");
    await admin.goto("/members?q=creator");
    memberPath = (await admin.getByRole("link", { name: member, exact: true }).getAttribute("href")) ?? "";
    expect(memberPath).toMatch(/^\/members\/[0-9a-f-]{36}$/);

    // A notice of theirs, whose PDF the archive holds.
    await saveRoundOne(page, `Archived ${Date.now().toString(36)}`, "Cara Creator", "250");

    // The archive: asked for on the profile, made by the job while the page refreshes, its link e-mailed.
    await page.goto("/profile");
    await page.getByRole("button", { name: "Prepare my archive" }).click();
    await expect(page.getByText("Your archive is being made: we e-mail you a link when it is ready.")).toBeVisible();
    await expect(async () => {
      await openOutbox(admin, { to: email, subject: "Your data is ready to download" });
      await expect(admin.getByRole("link", { name: "Your data is ready to download" })).toHaveCount(1, {
        timeout: 1_000,
      });
    }).toPass({ timeout: 30_000, intervals: [1_000] });
    await admin.getByRole("link", { name: "Your data is ready to download" }).click();
    const mail = (await admin.locator("pre.mail").textContent()) ?? "";
    const link = /http\S+(\/profile\/data\/\S+)/.exec(mail)?.[1];
    expect(link, mail).toBeTruthy();

    // Ready, it is also on the profile for the member signed in (the link is for when they are away).
    await page.reload();
    await expect(page.getByRole("button", { name: "Download your data" })).toBeVisible();

    const download = await page.request.get(link!);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("application/zip");
    const nosniff = download.headersArray().filter((h) => h.name.toLowerCase() === "x-content-type-options");
    expect(nosniff.map((h) => h.value)).toEqual(["nosniff"]);
    const files = unzip(await download.body());
    expect(files.get("README.txt")?.toString("utf8")).toContain("records/profile.json");
    const profile = JSON.parse(files.get("records/profile.json")!.toString("utf8")) as Record<string, unknown>;
    expect(JSON.stringify(profile)).toContain(email);
    expect(JSON.stringify(profile)).not.toMatch(/password_?hash/i);
    const pdfs = [...files].filter(([name]) => name.startsWith("documents/") && name.endsWith(".pdf"));
    expect(pdfs.length).toBeGreaterThan(0);
    for (const [name, bytes] of pdfs) expect(bytes.subarray(0, 5).toString("latin1"), name).toBe("%PDF-");
    // The link works once: a second time, or opened by an admin, it is a page that says why and what to do.
    const again = await page.goto(link!);
    expect(again!.status()).toBe(410);
    expect(again!.headers()["content-type"]).toContain("text/html");
    await expect(page.getByRole("heading", { level: 1, name: "Your data archive" })).toBeVisible();
    await expect(page.getByText(/^This archive was downloaded already/)).toBeVisible();
    await expect(page.getByText("Ask for a new archive on your profile: you can ask for one a day.")).toBeVisible();
    await page.getByRole("link", { name: "Go to your profile" }).click();
    await expect(page.getByRole("heading", { name: "Download my data" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Download your data" })).toHaveCount(0);
    const notTheirs = await admin.goto(link!);
    expect(notTheirs!.status()).toBe(403);
    await expect(admin.getByText(/^This archive is not yours/)).toBeVisible();

    // Deleted with the password: logged out; logging in offers to undo, and keeping it signs in.
    await deleteAccount(page);
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/login/);
    await submitLogin(page, member);
    await expect(page.getByRole("heading", { name: "Your account is deleted" })).toBeVisible();
    await page.getByRole("button", { name: "Keep my account" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    await page.goto("/profile");
    await expect(page.getByRole("heading", { name: "Download my data" })).toBeVisible();

    // Deleted again, for good: the admins list it among the pending erasures.
    await deleteAccount(page);
    await admin.goto("/members/deletions");
    await expect(admin.getByRole("link", { name: member, exact: true })).toBeVisible();
    await page.context().close();
    await admin.context().close();
  } finally {
    await today.stop();
  }

  // 15 days on, a few seconds past the sweep's minute: pg-boss finds it due as it starts.
  const later = Date.now() + 15 * DAY_MS;
  const toMinute = (SWEEP_MINUTE_MS + PAST_THE_MINUTE_MS - (later % HOUR_MS) + HOUR_MS) % HOUR_MS;
  const afterGrace = await startServer({
    dataDir,
    env: { NODE_OPTIONS: `--import=${SHIFTED_CLOCK}`, CLOCK_OFFSET_MS: String(15 * DAY_MS + toMinute) },
  });
  try {
    const admin = await pageOn(browser, afterGrace, "admin");
    await expect(async () => {
      await admin.goto(memberPath);
      await expect(admin.getByRole("heading", { name: /^erased-[0-9a-f]{18}$/ })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000, intervals: [1_000] });
    await expect(admin.getByText(email)).toHaveCount(0);
    await admin.goto("/members?q=creator");
    await expect(admin.getByRole("link", { name: member, exact: true })).toHaveCount(0);

    // The login is refused as a wrong password, with no undo.
    const page = await pageOn(browser, afterGrace);
    await submitLogin(page, member);
    await expect(page.getByText("That username or e-mail address and password do not match")).toBeVisible();
    await expect(page).toHaveURL(/\/login(\?index)?$/);
  } finally {
    await afterGrace.stop();
  }
});
