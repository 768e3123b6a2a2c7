import { readFile } from "node:fs/promises";
import { LETTER_AREAS, within, type Area } from "~/domain/documents/letters";
import { pageLayout, readPdf } from "../helpers/pdf";
import { expect, test } from "./fixtures";
import { saveStep } from "./round-one";

const CLAIMANT = "Cara Creator";
const RETURN_ADDRESS = ["100 Sample Street", "Springfield, IL 62701"];
const RESPONDENTS = [
  { name: "Officer Example", type: "Official", typed: "1 Precinct Way, Springfield, IL 62701" },
  { name: "City Clerk", type: "Agency", typed: "2 City Hall Plaza, Suite 4, Springfield, IL 62702" },
];
/** The lines each address block prints: USPS's, the city with its state and ZIP. */
const WINDOW_LINES = [
  ["Officer Example", "1 Precinct Way", "Springfield, IL 62701"],
  ["City Clerk", "2 City Hall Plaza", "Suite 4", "Springfield, IL 62702"],
];

test("from round 1's mailing step a creator downloads the notice: one letter per respondent, both addresses in the window envelope's places, every page numbered", async ({
  page,
  signIn,
}) => {
  test.setTimeout(60_000);
  await signIn("creator");
  const version = `Letters ${Date.now().toString(36)}`;
  await page.goto(`/nol/creator/traffic-stop/notice?version=${encodeURIComponent(version)}`);
  await page.getByLabel("Claimant's name").fill(CLAIMANT);
  await page.getByLabel("Claimant's mailing address (optional)").fill(RETURN_ADDRESS.join("\n"));
  await page.getByLabel("Daily amount (USD)").fill("250");
  for (const [i, r] of RESPONDENTS.entries()) {
    await page.getByLabel(`Respondent ${i + 1}`, { exact: true }).fill(r.name);
    await page.getByLabel(`Type of respondent ${i + 1}`).selectOption(r.type);
    await page.getByLabel(`Mailing address of respondent ${i + 1} (optional)`).fill(r.typed);
  }
  await saveStep(page, version, "Round 1 Notice of Liability", "Round 1 Mailing");

  await page.goto(`/nol/creator/traffic-stop/mailing?version=${encodeURIComponent(version)}`);
  const letters = page.getByRole("region", { name: "The letters to mail" });
  const downloading = page.waitForEvent("download");
  await letters.getByRole("link", { name: "Download Round 1 Notice of Liability (PDF)" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^ts-letters-.*-round-1\.pdf$/);
  const { doc, pages } = await readPdf(await readFile((await download.path())!));

  // One letter per respondent, each from a new page: here each fits on one.
  expect(pages).toHaveLength(RESPONDENTS.length);
  for (const [i, respondent] of RESPONDENTS.entries()) {
    const { texts } = await pageLayout(doc, doc.getPage(i));
    const inside = (area: Area) => texts.filter((t) => within(t, area)).map((t) => t.text);
    expect(inside(LETTER_AREAS.recipient)).toEqual(WINDOW_LINES[i]);
    expect(inside(LETTER_AREAS.returnAddress)).toEqual([CLAIMANT, ...RETURN_ADDRESS]);
    expect(pages[i]).toContain(`To: ${respondent.name} (${respondent.type})`);
    // "Page N of M" at the right of the page's foot.
    const number = texts.find((t) => /Page \d+ of \d+$/.test(t.text));
    expect(number?.text).toBe(`Letter ${i + 1} of 2 · Page 1 of 1`);
    expect(number!.x + number!.width).toBeGreaterThan(doc.getPage(i).getWidth() / 2);
    expect(number!.y).toBeLessThan(72);
  }

  // The round's line of the timeline offers the same document.
  const timeline = page.getByRole("region", { name: "Timeline" });
  const href = await timeline
    .getByRole("link", { name: "Download Round 1 Notice of Liability (PDF)" })
    .getAttribute("href");
  const fromTimeline = await page.request.get(String(href));
  expect(fromTimeline.headers()["content-type"]).toBe("application/pdf");
  expect((await readPdf(await fromTimeline.body())).pages).toEqual(pages);
});

test("on a phone the notarize page offers the notice through its links alone, and says why", async ({
  page,
  signIn,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn("creator");
  const version = `Phone ${Date.now().toString(36)}`;
  await page.goto(`/nol/creator/traffic-stop/notice?version=${encodeURIComponent(version)}`);
  await page.getByLabel("Claimant's name").fill(CLAIMANT);
  await page.getByLabel("Daily amount (USD)").fill("250");
  await page.getByLabel("Respondent 1", { exact: true }).fill(RESPONDENTS[0]!.name);
  await saveStep(page, version, "Round 1 Notice of Liability", "Round 1 Mailing");

  // The phone is not kept waiting for a preview it would not show.
  const previews: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/nol/preview")) previews.push(request.url());
  });
  await page.goto(`/nol/creator/traffic-stop/notarize?version=${encodeURIComponent(version)}`);
  // The page's script has run, and had a moment to ask for what it asks for at once.
  await page.waitForFunction(() => "__remixRouter" in window);
  await page.waitForTimeout(1_000);
  await expect(page.getByRole("button", { name: "Notarize online" })).toBeEnabled();
  await expect(page.getByText("Preparing the preview…")).toHaveCount(0);
  const frame = page.locator("iframe[title='Preview of the Round 1 notice']");
  await expect(frame).toHaveCount(0);
  expect(previews).toEqual([]);
  await expect(page.getByText("A phone does not show a PDF inside a page")).toBeVisible();
  await expect(page.getByRole("link", { name: "Open the preview" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Download the preview" })).toBeVisible();

  // A wider screen asks for the document and shows it in the page, and no sentence about phones.
  await page.setViewportSize({ width: 1024, height: 800 });
  await expect(frame).toBeVisible({ timeout: 15_000 });
  expect(previews).toHaveLength(1);
  await expect(page.getByText("A phone does not show a PDF inside a page")).toBeHidden();
});
