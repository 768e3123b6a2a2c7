import { expect, test } from "./fixtures";
import { RESPONDENT_ADDRESS, saveRoundOne, saveStep } from "./round-one";

test("a creator starts a second version from the first one's answers, changes one before saving, and the copy is saved as changed", async ({
  page,
  signIn,
}) => {
  test.setTimeout(60_000);
  await signIn("creator");
  const stamp = Date.now().toString(36);
  const first = `First ${stamp}`;
  const second = `Second ${stamp}`;
  await saveRoundOne(page, first, "Cara Creator", "250");

  await page.goto("/nol/creator/traffic-stop");
  await page.getByLabel("Name of this version").fill(second);
  await page.getByLabel("Start from the answers of").selectOption(first);
  await page.getByRole("button", { name: "Start", exact: true }).click();

  // What was copied is listed, and fills the form; nothing is saved yet.
  await expect(
    page.getByText(
      `Copied from “${first}”: the claimant's name, the daily amount and 1 respondent (Officer Example). Change anything before you save; nothing is saved until you do.`,
    ),
  ).toBeVisible();
  await expect(page.getByLabel("Claimant's name")).toHaveValue("Cara Creator");
  await expect(page.getByLabel("Daily amount (USD)")).toHaveValue("250");
  await expect(page.getByLabel("Respondent 1", { exact: true })).toHaveValue("Officer Example");
  await expect(page.getByLabel("Type of respondent 1")).toHaveValue("Official");
  await expect(page.getByLabel("Mailing address of respondent 1 (optional)")).toHaveValue(RESPONDENT_ADDRESS);
  await page.goto("/nol/creator/traffic-stop");
  await expect(page.locator("article.version").filter({ hasText: second })).toHaveCount(0);

  // Started again, one answer changed, and saved: the new version has the copy as changed.
  await page.goto(`/nol/creator/traffic-stop/notice?${new URLSearchParams({ version: second, from: first })}`);
  await page.getByLabel("Respondent 2", { exact: true }).fill("County Clerk Example");
  await saveStep(page, second, "Round 1 Notice of Liability", "Round 1 Mailing");
  await page.goto(`/nol/creator/traffic-stop/mailing?${new URLSearchParams({ version: second })}`);
  await expect(page.getByLabel("Tracking number for Officer Example")).toBeVisible();
  await expect(page.getByLabel("Tracking number for County Clerk Example")).toBeVisible();
});
