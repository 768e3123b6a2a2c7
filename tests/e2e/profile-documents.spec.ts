import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { readPdf } from "../helpers/pdf";
import { expectAccessible } from "./axe";
import { expect, test } from "./fixtures";
import { deliverRoundOne, saveRoundOne } from "./round-one";

const CLAIMANT = "Dora Document";

async function downloaded(page: Page, click: () => Promise<void>) {
  const downloading = page.waitForEvent("download");
  await click();
  const download = await downloading;
  return { name: download.suggestedFilename(), bytes: await readFile((await download.path())!) };
}

test("after a round moves on, the profile lists its notice and notarized copy, to the member alone", async ({
  page,
  signIn,
  pageAs,
}) => {
  test.setTimeout(90_000);
  await signIn("creator");
  const version = `Documents ${Date.now()}`;
  const step = (kind: string) => `/nol/creator/traffic-stop/${kind}?version=${encodeURIComponent(version)}`;
  await saveRoundOne(page, version, CLAIMANT, "250");

  // Round 1 is notarized on the sandbox notary.
  await page.goto(step("notarize"));
  await expect(page.getByText("Preparing the preview…")).toHaveCount(0);
  await page.getByRole("button", { name: "Notarize online" }).click();
  await expect(page.getByTestId("notarize-status")).toHaveText("Sent: waiting for you to sign");
  await page.getByRole("link", { name: "Open the signing page" }).click();
  await page.getByRole("button", { name: "Meet the notary" }).click();
  await page.getByRole("button", { name: "Sign", exact: true }).click();
  await expect(page.getByText("Signed: you can close this page")).toBeVisible();
  await page.getByRole("link", { name: /^Return to / }).click();
  await expect(page.getByTestId("notarize-status")).toHaveText("Completed: notarized");

  // Then mailed and delivered: the version moves on to round 2.
  await deliverRoundOne(page, version);

  await page.goto("/profile/notices");
  await expect(page.getByRole("heading", { level: 1, name: "Your notices and documents" })).toBeVisible();
  const documents = page.getByRole("table", { name: `Documents of ${version}` });
  const row = documents.getByRole("row", { name: /Round 1 Notice of Liability/ });
  await expect(row.getByRole("rowheader")).toHaveText("Round 1 Notice of Liability");
  await expectAccessible(page, "/profile/notices");

  const open = row.getByRole("link", { name: `Open the Round 1 Notice of Liability of ${version}` });
  const href = (await open.getAttribute("href"))!;
  expect(href).toMatch(/^\/api\/nol\/preview\?/);
  const notice = await downloaded(page, () =>
    row.getByRole("link", { name: `Download the Round 1 Notice of Liability of ${version}` }).click(),
  );
  expect(notice.name).toMatch(/round-1\.pdf$/);
  expect((await readPdf(notice.bytes)).pages.join("\n")).toContain(CLAIMANT);

  const notarized = await downloaded(page, () =>
    row.getByRole("link", { name: `Download the notarized Round 1 Notice of Liability of ${version}` }).click(),
  );
  expect(notarized.name).toMatch(/^notarized-.*round-1\.pdf$/);
  const { pages } = await readPdf(notarized.bytes);
  expect(pages.join("\n")).toContain(CLAIMANT);
  expect(pages.at(-1)).toContain("Certificate of notarial act");

  // Another member's address for it finds nothing.
  const notarizedHref = (await row.getByRole("link", { name: /Download the notarized/ }).getAttribute("href"))!;
  const other = await pageAs("member");
  expect((await other.request.get(href)).status()).toBe(404);
  expect((await other.request.get(notarizedHref)).status()).toBe(404);
  expect((await page.request.get(href)).status()).toBe(200);
});
