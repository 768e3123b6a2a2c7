import { readPdf } from "../helpers/pdf";
import { newDataDir, startServer } from "../helpers/server";
import { expect, test } from "./fixtures";
import { cancelThird, lettersWithNumbers, payForThree, RESPONDENTS, writeNoticeToThree } from "./mail-round";
import { pageOn, SHIFTED_CLOCK } from "./own-server";

const DAY_MS = 86_400_000;

// A server of its own, then the same data directory five days later by its clock: the sandbox
// mail house has mailed and delivered the letters by then.
test("a creator has round 1 mailed to the respondents from the app: addresses checked (one corrected), paid, tracked on the timeline, one cancelled and refunded, the rest delivered with their return receipts", async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const dataDir = newDataDir({});
  const version = `Mailed ${Date.now().toString(36)}`;
  const step = (kind: string) => `/nol/creator/traffic-stop/${kind}?version=${encodeURIComponent(version)}`;
  const mailPage = `/nol/creator/traffic-stop/mail?version=${encodeURIComponent(version)}`;

  // Each letter's own tracking number, read from the mail page.
  let numbers: string[] = [];
  const today = await startServer({ dataDir });
  try {
    // The addresses and the payment, without JavaScript: plain forms.
    const plain = await pageOn(browser, today, "creator", { javaScriptEnabled: false });
    await writeNoticeToThree(plain, step("notice"));
    await plain.goto(step("mailing"));
    await plain.getByRole("link", { name: "Mail it for me" }).click();
    await expect(
      plain.getByRole("heading", { level: 1, name: "Mail it for me: Round 1 Notice of Liability" }),
    ).toBeVisible();
    const officer = plain.getByRole("group", { name: "Respondent 1: Officer Example" });
    await expect(officer.getByLabel("Street address")).toHaveValue("1 Precinct Way");
    await expect(officer.getByLabel("ZIP code")).toHaveValue("62701");

    // The return address is missing from the notice: the check says so beside its fields.
    await plain.getByRole("button", { name: "Check the addresses" }).click();
    await expect(plain.getByText("Correct your return address, then check again.")).toBeVisible();
    const from = plain.getByRole("group", { name: "Your return address" });
    await expect(from.getByLabel("Street address")).toHaveAttribute("aria-invalid", "true");
    await from.getByLabel("Street address").fill("12 Claimant Road");
    await from.getByLabel("City").fill("Dover");
    await from.getByLabel("State (two letters)").fill("DE");
    await from.getByLabel("ZIP code").fill("19901");
    await plain.getByRole("button", { name: "Check the addresses" }).click();
    await expect(plain.getByText("The addresses are checked: confirm them below, then pay.")).toBeVisible();
    // Nothing is paid for before the member signs the notice the letters carry.
    await expect(plain.getByRole("form", { name: "3. Confirm and pay" })).toHaveCount(0);
    await expect(plain.getByText("The addresses are ready: sign the notice (step 1)")).toBeVisible();
    await plain
      .getByRole("region", { name: "1. Sign the notice" })
      .getByRole("link", { name: "Sign the notice" })
      .click();
    await expect(plain.getByLabel("Your full name")).toHaveValue("Cara Creator");
    await plain.getByLabel("I have read the words above and agree to sign electronically").check();
    await plain.getByRole("button", { name: "Sign the notice" }).click();
    await expect(plain.getByRole("region", { name: /^Signed by Cara Creator on / })).toBeVisible();
    await plain.getByRole("link", { name: "Back to Mail it for me" }).click();
    await expect(plain.getByRole("region", { name: "1. Sign the notice" })).toContainText(/Signed by Cara Creator on /);
    // USPS writes the clerk's street its own way: the member chooses, USPS's by default.
    const confirm = plain.getByRole("form", { name: "3. Confirm and pay" });
    await expect(confirm.getByLabel("USPS's address: Clerk Extra, 2 CT ST, SPRINGFIELD, IL 62701")).toBeChecked();
    await expect(confirm).toContainText("3 envelopes × $9.50 = $28.50");
    await payForThree(plain);
    await plain.context().close();

    // With JavaScript the page follows the letters until the mail house has them all.
    const creator = await pageOn(browser, today, "creator");
    const letters = await lettersWithNumbers(creator, mailPage);
    numbers = await Promise.all(
      RESPONDENTS.map(
        async (r) =>
          /940711\d{16}/.exec((await letters.getByRole("row", { name: new RegExp(r.name) }).textContent()) ?? "")![0],
      ),
    );
    await expect(letters.getByRole("row", { name: /Clerk Extra/ })).toContainText("At the mail house, not yet mailed");

    // The third respondent's letter is cancelled before print: its price comes back.
    await cancelThird(creator, letters);
    // The cancelled respondent can be mailed again, in an order of their own.
    const again = creator.getByRole("form", { name: "2. The addresses" });
    await expect(creator.getByText("Mailing again:")).toBeVisible();
    await expect(again.getByRole("group", { name: /^Respondent \d/ })).toHaveText([/Respondent 3: Deputy Third/]);

    // The mailing step's timeline has the tracking numbers, as if typed.
    await creator.goto(step("mailing"));
    const timeline = creator.getByRole("region", { name: "Timeline" });
    for (const number of numbers.slice(0, 2))
      await expect(timeline.getByRole("link", { name: new RegExp(number) })).toBeVisible();
    await creator.goto("/profile/billing");
    await expect(creator.getByText("Letters by Certified Mail").first()).toBeVisible();
    await creator.context().close();
  } finally {
    await today.stop();
  }

  const later = await startServer({
    dataDir,
    env: { NODE_OPTIONS: `--import=${SHIFTED_CLOCK}`, CLOCK_OFFSET_MS: String(5 * DAY_MS) },
  });
  try {
    const creator = await pageOn(browser, later, "creator");
    await creator.goto(mailPage);
    const letters = creator.getByRole("table", { name: "The letters" });
    for (const name of ["Officer Example", "Clerk Extra"])
      await expect(letters.getByRole("row", { name: new RegExp(name) })).toContainText("Delivered");
    // Two respondents served, the third's letter cancelled: the round waits for them.
    await creator.goto("/nol/creator/traffic-stop");
    const card = creator.locator("article.version").filter({ hasText: version });
    await expect(card.getByTestId("next-step")).toHaveText("Round 1 Proof of Delivery");
    await expect(card).toContainText("1 respondent still to serve");
    await creator.goto(step("proof"));
    const served = creator.getByRole("region", { name: "Each respondent of this round" });
    await expect(served.getByRole("listitem").filter({ hasText: "Deputy Third" })).toContainText(
      "Cancelled before it was mailed",
    );
    await expect(served.getByRole("listitem").filter({ hasText: "Officer Example" })).toContainText("Delivered on");
    // The step offers the third one a new letter from the app; the member mails it by hand instead.
    await creator.getByRole("link", { name: "Mail it for me" }).click();
    await expect(creator.getByRole("group", { name: "Respondent 3: Deputy Third" })).toBeVisible();
    await expect(creator.getByRole("group", { name: "Respondent 1: Officer Example" })).toHaveCount(0);
    await creator.goBack();
    // The member mails the third one by hand, with its own tracking number.
    const laterDay = new Date(Date.now() + 5 * DAY_MS).toISOString().slice(0, 10);
    await served.getByRole("link", { name: "Mail again or leave out Deputy Third" }).click();
    await creator.getByLabel("Mailing date").fill(laterDay);
    await creator.getByLabel("Tracking number").fill("RR123456785US");
    await creator.getByRole("button", { name: "Record the mailing" }).click();
    await expect(creator.getByText("The notice to Deputy Third is recorded as mailed.")).toBeVisible();
    await expect(creator.getByRole("heading", { level: 1, name: "Round 1 Proof of Delivery" })).toBeVisible();
    await creator.getByLabel("The proof of delivery has arrived").check();
    await creator.getByLabel("Delivery date").fill(laterDay);
    await creator.getByRole("button", { name: "Save Round 1 Proof of Delivery" }).click();
    await expect(card.getByTestId("next-step")).toHaveText("Round 2 Notice of Fault");

    await creator.goto(step("notice"));
    const timeline = creator.getByRole("region", { name: "Timeline" });
    const round1 = timeline.getByRole("list", { name: "Respondents of Round 1 Notice of Liability" });
    for (const [i, number] of [numbers[0]!, numbers[1]!, "RR123456785US"].entries())
      await expect(round1.getByRole("listitem").filter({ hasText: RESPONDENTS[i]!.name })).toContainText(number);
    await expect(round1.getByRole("listitem").filter({ hasText: "Deputy Third" })).toContainText("(by hand)");

    // The notice's three letters each name their own envelope's number.
    const notice = await creator.request.get(
      String(
        await timeline.getByRole("link", { name: "Download Round 1 Notice of Liability (PDF)" }).getAttribute("href"),
      ),
    );
    const pages = (await readPdf(await notice.body())).pages;
    const own = [numbers[0]!, numbers[1]!, "RR123456785US"];
    for (const [i, number] of own.entries()) {
      const letter = pages.filter((text) => text.includes(`Letter ${i + 1} of 3`)).join("\n");
      expect(letter).toContain(RESPONDENTS[i]!.name);
      expect(letter).toContain(number);
      for (const other of own.filter((n) => n !== number)) expect(letter).not.toContain(other);
    }
    const receipt = await creator.request.get(
      String(
        await timeline
          .getByRole("link", { name: "Return receipt of the letter to Clerk Extra (PDF)" })
          .getAttribute("href"),
      ),
    );
    expect(receipt.headers()["content-type"]).toBe("application/pdf");
    const receiptText = (await readPdf(await receipt.body())).pages.join("\n");
    expect(receiptText).toContain("Return Receipt (Electronic)");
    expect(receiptText).toContain("2 CT ST");

    const proof = await creator.request.get(
      String(
        await timeline
          .getByRole("link", { name: "Proof of service of Round 1 Notice of Liability (PDF)" })
          .getAttribute("href"),
      ),
    );
    const proofText = (await readPdf(await proof.body())).pages.join("\n");
    expect(proofText).toContain("2. Clerk Extra (Official)");
    expect(proofText).toContain("Address: 2 CT ST, SPRINGFIELD, IL 62701");
    expect(proofText).toContain(
      "Sent by USPS Certified Mail with an electronic return receipt, which is kept with this round",
    );
    for (const number of own) expect(proofText).toContain(number);
    expect(proofText).toContain("Letter cancelled before it was mailed");
    expect(proofText).toContain("(by hand) · Tracking number: RR123456785US");
    await creator.goto("/profile/notices");
    await expect(
      creator.getByRole("link", { name: "Return receipt of the letter to Officer Example (PDF)" }),
    ).toBeVisible();
  } finally {
    await later.stop();
  }
});
