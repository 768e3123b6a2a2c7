import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";

test("without JavaScript, a notice's view your answers shows the claimant, the daily amount and the respondents", async ({
  browser,
  page: scripted,
  signIn,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn("creator", page);
  const version = `Answers ${Date.now()}`;
  await page.goto(`/nol/creator/traffic-stop/notice?version=${encodeURIComponent(version)}`);
  await page.getByLabel("Claimant's name").fill("Ann Answer");
  await page.getByLabel("Claimant's mailing address (optional)").fill("12 Claimant Road\nDover, DE 19901");
  await page.getByLabel("Daily amount (USD)").fill("250");
  await page.getByLabel("Respondent 1", { exact: true }).fill("Officer Example");
  await page.getByLabel("Type of respondent 1").selectOption("Official");
  await page.getByLabel("Mailing address of respondent 1 (optional)").fill("1 Precinct Way, Springfield, IL 62701");
  await page.getByLabel("Respondent 2", { exact: true }).fill("Clerk Example");
  await page.getByLabel("Type of respondent 2").selectOption("Individual");
  await page.getByRole("button", { name: "Save Round 1 Notice of Liability" }).click();

  const versionCard = page.locator("article.version").filter({ hasText: version });
  await versionCard.getByRole("link", { name: "Round 1 Notice of Liability: view your answers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Round 1 Notice of Liability" })).toBeVisible();
  const answers = page.getByRole("region", { name: "Answers" });
  await expect(answers.getByRole("definition").first()).toHaveText("Ann Answer");
  // Every address the notice names: the claimant's and each respondent's.
  await expect(answers.getByRole("definition").nth(1)).toHaveText("12 Claimant Road, Dover, DE 19901");
  await expect(answers.getByRole("definition").nth(2)).toHaveText("$250.00");
  const respondents = answers.getByRole("table", { name: "Respondents" });
  await expect(
    respondents.getByRole("row", { name: "1 Officer Example Official 1 Precinct Way, Springfield, IL 62701" }),
  ).toBeVisible();
  await expect(respondents.getByRole("row", { name: "2 Clerk Example Individual Not given" })).toBeVisible();
  // The same page, read by axe in a browser with JavaScript.
  const url = page.url();
  await context.close();
  await signIn("creator", scripted);
  await scripted.goto(url);
  await expect(scripted.getByRole("table", { name: "Respondents" })).toBeVisible();
  await expectAccessible(scripted, "the entry's page");
});
