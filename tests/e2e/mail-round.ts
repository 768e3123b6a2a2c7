import { expect, type Locator, type Page } from "@playwright/test";
import { payWithCard } from "./new-member";

/** Round 1's three respondents, each with an address the sandbox mail house delivers to. */
export const RESPONDENTS = [
  { name: "Officer Example", address: "1 Precinct Way, Springfield, IL 62701" },
  { name: "Clerk Extra", address: "2 Court Street, Springfield, IL 62701" },
  { name: "Deputy Third", address: "3 Main St, Springfield, IL 62701" },
];

/** Writes and saves round 1's notice to the three respondents, from its notice step's path. */
export async function writeNoticeToThree(page: Page, noticePath: string) {
  await page.goto(noticePath);
  await page.getByLabel("Claimant's name").fill("Cara Creator");
  await page.getByLabel("Daily amount (USD)").fill("250");
  for (const [i, respondent] of RESPONDENTS.entries()) {
    await page.getByLabel(`Respondent ${i + 1}`, { exact: true }).fill(respondent.name);
    await page.getByLabel(`Type of respondent ${i + 1}`).selectOption("Official");
    await page.getByLabel(`Mailing address of respondent ${i + 1} (optional)`).fill(respondent.address);
  }
  await page.getByRole("button", { name: "Save Round 1 Notice of Liability" }).click();
}

/** Confirms the three addresses on the mail page and pays for the letters with the sandbox's test card. */
export async function payForThree(page: Page) {
  const confirm = page.getByRole("form", { name: "3. Confirm and pay" });
  for (const respondent of RESPONDENTS)
    await confirm.getByLabel(`Mail the letter to ${respondent.name} at this address`).check();
  await confirm.getByRole("button", { name: "Pay $28.50 and mail" }).click();
  await payWithCard(page, "4242 4242 4242 4242");
  await expect(page.getByText("Thank you: your payment went through, and your letters are being sent.")).toBeVisible();
}

/** The mail page's letters once each has its tracking number (the page follows them as they come). */
export async function lettersWithNumbers(page: Page, mailPath: string) {
  await page.goto(mailPath);
  const letters = page.getByRole("table", { name: "The letters" });
  for (const respondent of RESPONDENTS)
    await expect(letters.getByRole("row", { name: new RegExp(respondent.name) })).toContainText(/940711\d{16}/, {
      timeout: 30_000,
    });
  return letters;
}

/** Cancels the third respondent's letter before print, and waits until the page shows its price refunded. */
export async function cancelThird(page: Page, letters: Locator) {
  const third = letters.getByRole("row", { name: /Deputy Third/ });
  await third.getByRole("button", { name: "Cancel the letter to Deputy Third" }).click();
  await expect(page.getByText("The letter is cancelled: $9.50 is refunded to your card.")).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(third).toContainText("$9.50 (refunded)", { timeout: 1_000 });
  }).toPass({ timeout: 30_000, intervals: [1_000] });
  await expect(third).toContainText("Cancelled");
}
