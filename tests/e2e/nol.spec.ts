import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { day } from "./round-one";

function causeItem(page: Page, name: string) {
  return page.locator(".cause-list li").filter({ hasText: name });
}

test("the creator takes a live cause from round 1 through Default to Setup Billing and the First True Bill mailing", async ({
  page,
  signIn,
}) => {
  test.setTimeout(90_000);
  await signIn("creator");
  await page.goto("/nol/creator");
  await expect(page.getByRole("heading", { name: "Choose a cause" })).toBeVisible();
  await page.getByRole("link", { name: "Traffic Stop" }).click();
  await expect(page).toHaveURL(/\/nol\/creator\/traffic-stop$/);

  // The form's own message, as every form of the site shows it, not the browser's bubble.
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByText("Name this version")).toBeVisible();
  await expect(page.getByLabel("Name of this version")).toHaveAttribute("aria-invalid", "true");

  const version = `Highway patrol ${Date.now()}`;
  await page.getByLabel("Name of this version").fill(version);
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Round 1 Notice of Liability" })).toBeVisible();
  await page.getByLabel("Daily amount (USD)").fill("250");
  await page.getByLabel("Respondent 1", { exact: true }).fill("Officer Example");
  await page.getByLabel("Type of respondent 1").selectOption("Official");
  await page.getByRole("button", { name: "Save Round 1 Notice of Liability" }).click();

  const versionCard = page.locator("article.version").filter({ hasText: version });
  const expectNext = async (label: string) => {
    await expect(versionCard.getByTestId("next-step")).toHaveText(label);
  };
  const continueWith = async (label: string) => {
    await expectNext(label);
    await versionCard.getByRole("link", { name: `Continue: ${label}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
  };
  const mail = async (label: string) => {
    await continueWith(label);
    await page.getByLabel("Mailing date").fill(day().iso);
    // One envelope for each respondent named so far, each with its tracking number.
    for (const field of await page.getByLabel(/^Tracking number for /).all()) await field.fill("RR123456789US");
    await page.getByRole("button", { name: `Save ${label}` }).click();
  };
  const deliver = async (label: string) => {
    await continueWith(label);
    await page.getByLabel("The proof of delivery has arrived").check();
    await page.getByLabel("Delivery date").fill(day().iso);
    await page.getByRole("button", { name: `Save ${label}` }).click();
  };
  const notice = async (label: string, slot: number) => {
    await continueWith(label);
    await page.getByLabel(`Respondent ${slot}`, { exact: true }).fill(`Respondent number ${slot}`);
    // The last round was delivered today: its respondents' time to answer runs on.
    await page.getByLabel("Send it early anyway").check();
    await page.getByRole("button", { name: `Save ${label}` }).click();
  };

  await mail("Round 1 Mailing");
  await deliver("Round 1 Proof of Delivery");
  await expect(versionCard).toContainText("Done: Round 1.");
  await notice("Round 2 Notice of Fault", 9);
  await mail("Round 2 Mailing");
  await deliver("Round 2 Proof of Delivery");
  await expect(versionCard).toContainText("Done: Rounds 1 to 2.");
  await notice("Round 3 Default", 13);
  await mail("Round 3 Mailing");
  await deliver("Round 3 Proof of Delivery");

  await continueWith("Setup Billing");
  await page.getByRole("button", { name: "Save Setup Billing" }).click();
  await expect(versionCard.getByRole("link", { name: "Billing Profile" })).toBeVisible();

  await continueWith("First True Bill");
  // The bill lists the version's respondents, each with its status and continue boxes.
  const officer = page.getByTestId("bill-respondent-1");
  await expect(officer).toContainText("Officer Example");
  await expect(officer.getByLabel("Still liable")).toBeChecked();
  await expect(officer.getByLabel("Bill again on the next true bill")).toBeChecked();
  await page.getByLabel("Preparation date").fill(day().iso);
  await page.getByLabel("Send it early anyway").check();
  await page.getByLabel("Administrative judgment (USD)").fill("10000");
  await page.getByRole("button", { name: "Save First True Bill" }).click();
  await expectNext("First True Bill Mailing");
  await expect(versionCard.getByRole("link", { name: "First True Bill: view your answers" })).toBeVisible();
  // The bill's answers name whom it bills; the profile lists its document.
  await versionCard.getByRole("link", { name: "First True Bill: view your answers" }).click();
  const billed = page.getByRole("table", { name: "Respondents billed" });
  await expect(billed.getByRole("row", { name: /^1 Officer Example Official/ })).toBeVisible();
  await page.goto("/profile/notices");
  const bill = page
    .getByRole("table", { name: `Documents of ${version}` })
    .getByRole("row", { name: /First True Bill/ });
  const billHref = await bill
    .getByRole("link", { name: `Open the First True Bill of ${version}` })
    .getAttribute("href");
  const billPdf = await page.request.get(billHref!);
  expect(billPdf.headers()["content-type"]).toBe("application/pdf");
  await page.goto("/nol/creator/traffic-stop");
  await continueWith("First True Bill Mailing");

  // Each entry opens by its link, with the entry named in the query (spec §2.2).
  await page.goBack();
  const notices = "Round 1 Notice of Liability to Round 3 Default";
  await versionCard.getByRole("link", { name: `${notices}: view your answers` }).click();
  await expect(page).toHaveURL(/\/nol\/seemless\/187\/.{31,}%2A\?entry=/);
  await expect(page.getByRole("heading", { level: 1, name: notices })).toBeVisible();
  await expect(page.getByRole("row", { name: new RegExp(`^Round 3 Default ${day().shown} Arrived`) })).toBeVisible();

  // The entry's link selects its version on the cause page (spec §4 "Selection").
  const link = new URL(page.url());
  await page.goto(`/nol/creator/traffic-stop?href=${encodeURIComponent(link.pathname + link.search)}`);
  await expect(versionCard.getByText("Selected", { exact: true })).toBeVisible();
  // The notice creator's entry is read-only: selecting it offers no Edit.
  await expect(versionCard.getByRole("link", { name: "Edit" })).toHaveCount(0);
  await versionCard.getByRole("link", { name: "Clear the selection" }).click();
  await expect(versionCard.getByText("Selected", { exact: true })).toHaveCount(0);

  // The billing profile is not read-only: selected, its built-in entry offers Edit.
  const profileHref = await versionCard
    .getByRole("link", { name: "Billing Profile: view your answers" })
    .getAttribute("href");
  await page.goto(`/nol/creator/traffic-stop?href=${encodeURIComponent(profileHref!)}`);
  const edit = versionCard.getByRole("link", { name: "Billing Profile: change your answers" });
  await expect(edit).toHaveAttribute("href", /^\/nol\/seemless\/\d+\/.{31,}%2A\?entry=/);
  await edit.click();
  await expect(page.getByRole("heading", { level: 1, name: "Billing Profile" })).toBeVisible();
});

test("cause status: the tester's testing cause is enabled, the creator's is not; a beta cause is listed and disabled", async ({
  page,
  signIn,
  pageAs,
}) => {
  await signIn("creator");
  await page.goto("/nol/creator");
  await expect(causeItem(page, "Traffic Stop").getByRole("link")).toBeVisible();
  await expect(causeItem(page, "Child Removal").getByRole("link")).toHaveCount(0);
  await expect(causeItem(page, "Child Removal")).toContainText("testing");
  await expect(causeItem(page, "Medical Coercion").getByRole("link")).toHaveCount(0);
  await expect(causeItem(page, "Medical Coercion")).toContainText("coming soon");

  const tester = await pageAs("tester");
  await tester.goto("/nol/creator");
  await expect(causeItem(tester, "Child Removal").getByRole("link", { name: "Child Removal" })).toBeVisible();
  await expect(causeItem(tester, "Traffic Stop").getByRole("link")).toBeVisible();
  await expect(causeItem(tester, "Medical Coercion").getByRole("link")).toHaveCount(0);
});

test.describe("addresses that do not fit", () => {
  test.use({ expectedConsoleErrors: [/status of 40[34]/] });

  test("an unknown form shows NotFound; an unknown cause says 'Unknown cause code'; a closed cause is refused", async ({
    page,
    signIn,
  }) => {
    await signIn("creator");
    await page.goto("/nol/bogus-form");
    await expect(page).toHaveURL(/\/nol\/NotFound$/);
    await expect(page.getByRole("heading", { name: "This form could not be found" })).toBeVisible();
    const unknown = await page.goto("/nol/creator/no-such-cause");
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Unknown cause code" })).toBeVisible();
    const closed = await page.goto("/nol/creator/child-removal");
    expect(closed?.status()).toBe(403);
  });
});

test("without JavaScript, starting a version without a name says so on the cause's page", async ({
  browser,
  signIn,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn("creator", page);
  await page.goto("/nol/creator/traffic-stop");
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page).toHaveURL(/\/nol\/creator\/traffic-stop\?version=$/);
  await expect(page.getByText("Name this version")).toBeVisible();
  await expect(page.getByLabel("Name of this version")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Name of this version").fill("Spring patrol");
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Round 1 Notice of Liability" })).toBeVisible();
  await context.close();
});

test("a name the step page refused, sent before the page's own check had loaded, shows its reason once the page runs", async ({
  page,
  signIn,
}) => {
  await signIn("creator");
  // Where the step page sends a blank name back to: the cause's page, with the name it refused.
  await page.goto("/nol/creator/traffic-stop?version=");
  await expect(page.getByText("Name this version")).toBeVisible();
  await expect(page.getByLabel("Name of this version")).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Name of this version").fill("Autumn patrol");
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Round 1 Notice of Liability" })).toBeVisible();
});
