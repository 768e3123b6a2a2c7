import { readFile } from "node:fs/promises";
import { pageLayout, readPdf, rectsMeet } from "../helpers/pdf";
import { expect, test } from "./fixtures";
import { deliverRoundOne, saveRoundOne, saveStep } from "./round-one";

test.describe("notarizing online", () => {
  // The signer page of a document removed at the notary answers 410 Gone.
  test.use({ expectedConsoleErrors: [/status of 410/] });

  test("a creator submits round 1, previews it, notarizes it on the sandbox notary and downloads the notarized PDF", async ({
    page,
    signIn,
  }) => {
    test.setTimeout(90_000);
    await signIn("creator");
    const version = `Notarized ${Date.now()}`;
    const claimant = "Cara Q. Claimant";
    await page.goto(`/nol/creator/traffic-stop/notice?version=${encodeURIComponent(version)}`);
    await expect(page.getByRole("heading", { level: 1, name: "Round 1 Notice of Liability" })).toBeVisible();
    await page.getByLabel("Claimant's name").fill(claimant);
    await page.getByLabel("Daily amount (USD)").fill("250");
    await page.getByLabel("Respondent 1", { exact: true }).fill("Officer Example");
    await page.getByLabel("Type of respondent 1").selectOption("Official");
    await page.getByRole("button", { name: "Save Round 1 Notice of Liability" }).click();

    const versionCard = page.locator("article.version").filter({ hasText: version });
    await versionCard.getByRole("link", { name: "Notarize the notice online" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Notarize online" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Round 1 notice" })).toBeVisible();
    await expect(page.getByLabel("Not legal advice")).toBeVisible();

    // The preview is asked for by itself; the button waits for it.
    await expect(page.frameLocator("iframe[title='Preview of the Round 1 notice']").locator("body")).toBeAttached();
    await expect(page.getByText("Preparing the preview…")).toHaveCount(0);
    await expect(page.getByTestId("notarize-status")).toHaveText("Not notarized");
    const notarizeButton = page.getByRole("button", { name: "Notarize online" });
    await expect(notarizeButton).toBeEnabled();
    await notarizeButton.click();
    await expect(page.getByTestId("notarize-status")).toHaveText("Sent: waiting for you to sign");

    const signingLink = page.getByRole("link", { name: "Open the signing page" });
    const signingHref = await signingLink.getAttribute("href");
    expect(signingHref).toMatch(/^\/notary\/sandbox\/ot_sb_/);
    await signingLink.click();
    await expect(page.getByRole("heading", { name: "Sign and notarize" })).toBeVisible();
    await page.getByRole("button", { name: "Meet the notary" }).click();
    await page.getByRole("button", { name: "Sign", exact: true }).click();
    await expect(page.getByText("Signed: you can close this page")).toBeVisible();
    await page.getByRole("link", { name: /^Return to / }).click();

    await expect(page.getByRole("heading", { level: 1, name: "Notarize online" })).toBeVisible();
    await expect(page.getByTestId("notarize-status")).toHaveText("Completed: notarized");
    // Each notice of the cause is listed with its version; the buttons say what they do.
    const current = page.getByRole("region", { name: "Your notices of this cause" }).locator('tr[aria-current="true"]');
    await expect(current.getByRole("rowheader")).toHaveText(`Round 1 ${version}`);
    await expect(page.getByText("Update sends it to the signer")).toBeVisible();
    const downloading = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download the notarized PDF" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^notarized-.*round-1\.pdf$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const { pages } = await readPdf(bytes);
    const text = pages.join("\n");
    expect(text).toContain(claimant);
    expect(text).toContain("Round 1");
    expect(pages.length).toBeGreaterThan(1);
    // Every page carries its number in the whole notarized document, the certificate page counted.
    pages.forEach((text, i) => expect(text).toContain(`Notarized document · Page ${i + 1} of ${pages.length}`));
    // The stamp on the document's last page covers none of its text: not the footer, not the page number.
    const { doc } = await readPdf(bytes);
    const { texts, paths } = await pageLayout(doc, doc.getPages().at(-2)!);
    const ring = paths.reduce((a, b) => (a.width >= b.width ? a : b));
    expect(ring.width).toBeGreaterThan(50);
    const stampWords = /^(SANDBOX|NOTARY|NOT LEGAL|\d{4}-\d{2}-\d{2})$/;
    const pageText = texts.filter((t) => !stampWords.test(t.text));
    expect(pageText.some((t) => t.text.startsWith("Not legal advice"))).toBe(true);
    expect(pageText.some((t) => /^Page \d+ of \d+$/.test(t.text))).toBe(true);
    expect(pageText.filter((t) => rectsMeet(t, ring)).map((t) => t.text)).toEqual([]);

    // The notary's staff delete it on their side; the next refresh says so.
    await page.goto(signingHref!);
    await page.getByText("Sandbox notary controls").click();
    await page.getByRole("button", { name: "Delete at the sandbox notary" }).click();
    await expect(page.getByText("This document was removed at Notarize Online")).toBeVisible();
    await page.getByRole("link", { name: /^Return to / }).click();
    await expect(page.getByText("Preparing the preview…")).toHaveCount(0);
    await page.getByRole("button", { name: "Refresh status" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "This document was removed at Notarize Online" }),
    ).toBeVisible();
    await expect(page.getByTestId("notarize-status")).toHaveText("Removed at Notarize Online");
    await expect(page.getByRole("link", { name: "Download the notarized PDF" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Notarize online" })).toBeEnabled();
  });
});

test("without JavaScript the notarize page sends, refreshes and deletes through plain form posts", async ({
  browser,
  signIn,
}) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn("creator", page);
  const version = `No script ${Date.now()}`;
  await saveRoundOne(page, version, "Nadia No-Script", "100");
  await page.goto(`/nol/creator/traffic-stop/notarize?version=${encodeURIComponent(version)}`);
  await expect(page.getByRole("link", { name: "Open the preview" })).toHaveAttribute("href", /\/api\/nol\/preview\?/);
  await page.getByLabel(/Prepare it as a draft/).check();
  await page.getByRole("button", { name: "Notarize online" }).click();
  await expect(page.getByText("Prepared as a draft. Use Update to send it to the signer.")).toBeVisible();
  await expect(page.getByTestId("notarize-status")).toHaveText("Draft: not sent to the signer yet");
  await page.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("Updated status")).toBeVisible();
  await expect(page.getByTestId("notarize-status")).toHaveText("Sent: waiting for you to sign");
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("The notarization was deleted.")).toBeVisible();
  await expect(page.getByTestId("notarize-status")).toHaveText("Not notarized");
  await context.close();
});

test("at a notice step the creator notarizes the notice being written, and finds it notarized at its mailing step", async ({
  page,
  signIn,
}) => {
  test.setTimeout(90_000);
  await signIn("creator");
  const version = `Written ${Date.now()}`;
  const step = (kind: string) => `/nol/creator/traffic-stop/${kind}?version=${encodeURIComponent(version)}`;
  await saveRoundOne(page, version, "Wanda Writer", "250");
  await deliverRoundOne(page, version);

  const versionCard = page.locator("article.version").filter({ hasText: version });
  await versionCard.getByRole("link", { name: "Notarize the notice online" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Notarize online" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Round 2 notice" })).toBeVisible();
  await expect(page.getByTestId("written-notice")).toContainText("as your saved answers make it");
  await expect(page.frameLocator("iframe[title='Preview of the Round 2 notice']").locator("body")).toBeAttached();
  await expect(page.getByText("Preparing the preview…")).toHaveCount(0);
  await expect(page.getByTestId("notarize-status")).toHaveText("Not notarized");
  await page.getByRole("button", { name: "Notarize online" }).click();
  await expect(page.getByTestId("notarize-status")).toHaveText("Sent: waiting for you to sign");
  const signingHref = await page.getByRole("link", { name: "Open the signing page" }).getAttribute("href");
  expect(signingHref).toMatch(/^\/notary\/sandbox\/ot_sb_/);

  // Saving the notice step keeps the notice and its notarize: the mailing step shows them.
  await page.goto(step("notice"));
  await page.getByLabel("Respondent 9", { exact: true }).fill("Clerk Extra");
  // Round 1 was delivered today: round 2 goes out before its window has closed, by choice.
  await page.getByLabel("Send it early anyway").check();
  await saveStep(page, version, "Round 2 Notice of Fault", "Round 2 Mailing");
  await versionCard.getByRole("link", { name: "Notarize the notice online" }).click();
  await expect(page.getByRole("heading", { name: "Round 2 notice" })).toBeVisible();
  await expect(page.getByTestId("written-notice")).toHaveCount(0);
  await expect(page.getByTestId("notarize-status")).toHaveText("Sent: waiting for you to sign");
  await expect(page.getByRole("link", { name: "Open the signing page" })).toHaveAttribute("href", signingHref!);
});

test("notarizing again at once after a delete makes a new transaction, which the refresh finds open", async ({
  page,
  signIn,
}) => {
  test.setTimeout(60_000);
  // The attempts fall within one minute, as a member's quick retry does.
  const second = new Date().getSeconds();
  if (second > 35) await page.waitForTimeout((61 - second) * 1000);
  await signIn("creator");
  const version = `Again ${Date.now()}`;
  await saveRoundOne(page, version, "Rita Retry", "100");
  await page.goto(`/nol/creator/traffic-stop/notarize?version=${encodeURIComponent(version)}`);
  await expect(page.getByText("Preparing the preview…")).toHaveCount(0);

  const status = page.getByTestId("notarize-status");
  const signing = page.getByRole("link", { name: "Open the signing page" });
  // The page refreshes a new notarize by itself, then loads the notices again: Delete waits for that.
  const reloaded = page.waitForResponse((r) => r.url().includes("/api/nol/notices"));
  await page.getByRole("button", { name: "Notarize online" }).click();
  await expect(status).toHaveText("Sent: waiting for you to sign");
  await reloaded;
  const first = await signing.getAttribute("href");
  await page.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("button", { name: "Click again to confirm" }).click();
  await expect(status).toHaveText("Not notarized");

  await page.getByRole("button", { name: "Notarize online" }).click();
  await expect(status).toHaveText("Sent: waiting for you to sign");
  await expect(signing).not.toHaveAttribute("href", first!);
  await expect(page.getByRole("button", { name: "Refresh status" })).toBeEnabled();
  await page.getByRole("button", { name: "Refresh status" }).click();
  await expect(page.getByText("Working with Notarize Online…")).toHaveCount(0);
  await expect(page.getByText("This document was removed at Notarize Online")).toHaveCount(0);
  await expect(status).toHaveText("Sent: waiting for you to sign");
  await signing.click();
  await expect(page.getByRole("heading", { name: "Sign and notarize" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Meet the notary" })).toBeVisible();
});
