import type { Page } from "@playwright/test";
import { newDataDir, startServer } from "../helpers/server";
import { expect, test } from "./fixtures";
import { cancelThird, lettersWithNumbers, payForThree, writeNoticeToThree } from "./mail-round";
import { pageOn } from "./own-server";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** How wide the page is drawn, and each tracking number that is broken over more than one line. */
function layoutOf(page: Page) {
  return page.evaluate(() => ({
    width: document.documentElement.scrollWidth,
    broken: [...document.querySelectorAll("a")]
      .filter((a) => a.textContent?.includes("(the carrier's tracking page"))
      .filter((a) => {
        // The number's own text, without the words only a screen reader reads.
        const tops = new Set<number>();
        for (const node of a.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE) continue;
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const rect of range.getClientRects()) tops.add(Math.round(rect.top));
        }
        return tops.size > 1;
      })
      .map((a) => (a.textContent ?? "").split(" (")[0]),
  }));
}

// A server of its own: the creator's round 1 is mailed from the app to three respondents, one
// letter cancelled; the pages that show its timeline are then read on a phone and on a desktop.
test("after letters are mailed from the app, the timeline's pages fit a phone's width and show each tracking number on one line on a desktop", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const server = await startServer({ dataDir: newDataDir({}) });
  const version = `Phone ${Date.now().toString(36)}`;
  const q = `?version=${encodeURIComponent(version)}`;
  const step = (kind: string) => `/nol/creator/traffic-stop/${kind}${q}`;
  try {
    // The addresses and the payment, as plain forms.
    const plain = await pageOn(browser, server, "creator", { javaScriptEnabled: false });
    await writeNoticeToThree(plain, step("notice"));
    await plain.goto(step("mailing"));
    await plain.getByRole("link", { name: "Mail it for me" }).click();
    // The notice has no return address: it is given on the mail page.
    await plain.getByRole("button", { name: "Check the addresses" }).click();
    const from = plain.getByRole("group", { name: "Your return address" });
    await from.getByLabel("Street address").fill("12 Claimant Road");
    await from.getByLabel("City").fill("Dover");
    await from.getByLabel("State (two letters)").fill("DE");
    await from.getByLabel("ZIP code").fill("19901");
    await plain.getByRole("button", { name: "Check the addresses" }).click();
    await expect(plain.getByText("The addresses are checked: confirm them below, then pay.")).toBeVisible();
    await plain
      .getByRole("region", { name: "1. Sign the notice" })
      .getByRole("link", { name: "Sign the notice" })
      .click();
    await plain.getByLabel("I have read the words above and agree to sign electronically").check();
    await plain.getByRole("button", { name: "Sign the notice" }).click();
    await plain.getByRole("link", { name: "Back to Mail it for me" }).click();
    await payForThree(plain);
    await plain.context().close();

    // The page follows the letters until each has its number; the third is cancelled.
    const creator = await pageOn(browser, server, "creator");
    const letters = await lettersWithNumbers(creator, step("mail"));
    await cancelThird(creator, letters);

    const admin = await pageOn(browser, server, "admin");
    await admin.goto("/members?q=creator");
    await admin.getByRole("link", { name: "creator", exact: true }).first().click();
    await expect(admin.getByRole("heading", { level: 1 })).toContainText(/creator/i);
    const memberPage = new URL(admin.url()).pathname;

    const cells: [Page, string][] = [
      [creator, `/nol/creator/traffic-stop${q}`],
      [creator, step("mailing")],
      [creator, "/profile/notices"],
      [admin, memberPage],
    ];
    const tooWide: string[] = [];
    const broken: string[] = [];
    for (const [page, path] of cells) {
      await page.setViewportSize(PHONE);
      await page.goto(path);
      await expect(page.getByRole("link", { name: /the carrier's tracking page/ }).first()).toBeVisible();
      const phone = await layoutOf(page);
      if (phone.width > PHONE.width) tooWide.push(`${path}: ${phone.width} px`);
      broken.push(...phone.broken.map((number) => `${path} at 390: ${number}`));
      await page.setViewportSize(DESKTOP);
      const desktop = await layoutOf(page);
      if (desktop.width > DESKTOP.width) tooWide.push(`${path} at 1280: ${desktop.width} px`);
      broken.push(...desktop.broken.map((number) => `${path} at 1280: ${number}`));
    }
    // The mail page itself: its letters, their numbers and the new order for the cancelled one, within the screen.
    await creator.setViewportSize(PHONE);
    await creator.goto(step("mail"));
    await expect(creator.getByRole("table", { name: "The letters" })).toBeVisible();
    // Its days in words, and one spelling of "cancelled".
    const words = await creator.locator("body").innerText();
    expect(words).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
    expect(words).not.toMatch(/\bcanceled\b/i);
    const mail = await creator.evaluate(() => document.documentElement.scrollWidth);
    if (mail > PHONE.width) tooWide.push(`${step("mail")}: ${mail} px`);
    for (const box of await creator.locator("input[type=checkbox], input[type=radio]").all()) {
      const size = await box.boundingBox();
      if (size && size.width > 40) tooWide.push(`${step("mail")}: a tick box ${size.width} px wide`);
    }
    expect(tooWide, "pages wider than the screen").toEqual([]);
    expect(broken, "tracking numbers broken over lines").toEqual([]);

    // The cancelled letter reads on the respondent's own line, beside their name.
    await creator.goto(step("mailing"));
    const round1 = creator.getByRole("list", { name: "Respondents of Round 1 Notice of Liability" });
    await expect(round1.getByRole("listitem").filter({ hasText: "Deputy Third" })).toContainText("Cancelled");
  } finally {
    await server.stop();
  }
});
