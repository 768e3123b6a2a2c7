import type { Page } from "@playwright/test";

/** Saves round 1 of a new version of Traffic Stop for the signed-in creator. */
export async function saveRoundOne(page: Page, version: string, claimant: string, dailyAmount: string) {
  await page.goto(`/nol/creator/traffic-stop/notice?version=${encodeURIComponent(version)}`);
  await page.getByLabel("Claimant's name").fill(claimant);
  await page.getByLabel("Daily amount (USD)").fill(dailyAmount);
  await page.getByLabel("Respondent 1", { exact: true }).fill("Officer Example");
  await page.getByLabel("Type of respondent 1").selectOption("Official");
  await page.getByRole("button", { name: "Save Round 1 Notice of Liability" }).click();
}
