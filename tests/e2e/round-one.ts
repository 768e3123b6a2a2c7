import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * Clicks a step's Save button and waits for the cause page to show the version's next step, so
 * that the next navigation cannot cut the save short.
 */
export async function saveStep(page: Page, version: string, label: string, next: string) {
  await page.getByRole("button", { name: `Save ${label}` }).click();
  const versionCard = page.locator("article.version").filter({ hasText: version });
  await expect(versionCard.getByTestId("next-step")).toHaveText(next);
}

/** Today and a day some days from it, as the date fields take them and the pages write them. */
export function day(offset = 0) {
  const date = new Date();
  date.setUTCDate(date.getUTCDate() + offset);
  return {
    iso: date.toISOString().slice(0, 10),
    shown: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(date),
  };
}

/** Where round 1's respondent is mailed. */
export const RESPONDENT_ADDRESS = "1 Precinct Way, Springfield, IL 62701";

/** Saves round 1 of a new version of Traffic Stop for the signed-in creator: Officer Example, with an address. */
export async function saveRoundOne(page: Page, version: string, claimant: string, dailyAmount: string) {
  await page.goto(`/nol/creator/traffic-stop/notice?version=${encodeURIComponent(version)}`);
  await page.getByLabel("Claimant's name").fill(claimant);
  await page.getByLabel("Daily amount (USD)").fill(dailyAmount);
  await page.getByLabel("Respondent 1", { exact: true }).fill("Officer Example");
  await page.getByLabel("Type of respondent 1").selectOption("Official");
  await page.getByLabel("Mailing address of respondent 1 (optional)").fill(RESPONDENT_ADDRESS);
  await saveStep(page, version, "Round 1 Notice of Liability", "Round 1 Mailing");
}

/**
 * Mails round 1 of the version and records its proof of delivery: the version moves on to round 2.
 * Mailed and delivered today unless given (YYYY-MM-DD): no envelope goes out before its notice.
 */
export async function deliverRoundOne(
  page: Page,
  version: string,
  days: { mailed: string; delivered: string } = { mailed: day().iso, delivered: day().iso },
) {
  const step = (kind: string) => `/nol/creator/traffic-stop/${kind}?version=${encodeURIComponent(version)}`;
  await page.goto(step("mailing"));
  await page.getByLabel("Mailing date").fill(days.mailed);
  await page.getByLabel("Tracking number").fill("RR123456789US");
  await saveStep(page, version, "Round 1 Mailing", "Round 1 Proof of Delivery");
  await page.goto(step("proof"));
  await page.getByLabel("The proof of delivery has arrived").check();
  await page.getByLabel("Delivery date").fill(days.delivered);
  await saveStep(page, version, "Round 1 Proof of Delivery", "Round 2 Notice of Fault");
}
