import { PDFDict, PDFName } from "pdf-lib";
import { readPdf } from "../helpers/pdf";
import { expect, test } from "./fixtures";
import { saveRoundOne } from "./round-one";

const CONSENT = "I have read the words above and agree to sign electronically";

/** The images drawn on a PDF's pages (an image's transparency, kept as an image of its own, is not counted). */
function imageCount(doc: Awaited<ReturnType<typeof readPdf>>["doc"]): number {
  return doc.getPages().reduce((sum, page) => {
    const objects = page.node.Resources()?.lookupMaybe(PDFName.of("XObject"), PDFDict);
    return sum + (objects?.keys().length ?? 0);
  }, 0);
}

test("a creator signs round 1's notice with a typed name without JavaScript, and the notice they download carries the signature", async ({
  browser,
  baseURL,
  page,
  signIn,
}) => {
  const version = `Signed ${Date.now().toString(36)}`;
  const mailing = `/nol/creator/traffic-stop/mailing?version=${encodeURIComponent(version)}`;
  await signIn("creator");
  await saveRoundOne(page, version, "Cara Creator", "250");

  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  try {
    const plain = await context.newPage();
    await signIn("creator", plain);
    await plain.goto(mailing);
    const letters = plain.getByRole("region", { name: "The letters to mail" });
    await letters.getByRole("link", { name: "Sign the notice" }).click();
    await expect(
      plain.getByRole("heading", { level: 1, name: "Sign the notice: Round 1 Notice of Liability" }),
    ).toBeVisible();
    await expect(plain.getByRole("region", { name: "Consent to sign electronically" })).toContainText(
      "I do not have to sign electronically",
    );
    // Without JavaScript the name is typed: drawing is not offered.
    const how = plain.getByRole("group", { name: "How you sign" });
    await expect(how.getByLabel("Type my name: it is printed in a handwriting style")).toBeChecked();
    await expect(how.getByLabel("Draw my signature")).toBeDisabled();
    await expect(how).toContainText("Your typed name is your signature: drawing one needs JavaScript.");

    // The consent is not ticked for the member: the form says so beside the box.
    await plain.getByLabel("Your full name").fill("Cara Creator");
    await plain.getByRole("button", { name: "Sign the notice" }).click();
    const consent = plain.getByLabel(CONSENT);
    await expect(consent).toHaveAttribute("aria-invalid", "true");
    const errorId = (await consent.getAttribute("aria-describedby"))!.split(" ")[0]!;
    await expect(plain.locator(`[id="${errorId}"]`)).toHaveText(
      "Tick the box to agree to sign electronically, or sign the notice on paper",
    );
    await expect(plain.getByLabel("Your full name")).toHaveValue("Cara Creator");

    await consent.check();
    await plain.getByRole("button", { name: "Sign the notice" }).click();
    await expect(
      plain.getByText("Signed. Your signature goes on each letter mailed for you and on the PDF you download."),
    ).toBeVisible();
    const summary = plain.getByRole("region", { name: /^Signed by Cara Creator on / });
    await expect(summary).toContainText("Typed name");
    await expect(summary).toContainText(/The notice's SHA-256\s*[0-9a-f]{64}/);
    const record = /Record\s*([0-9a-f-]{36})/.exec((await summary.textContent()) ?? "")![1]!;
    await expect(plain.getByRole("button", { name: "Sign again" })).toBeVisible();

    // The mailing step says who signed, and its download carries the signature and its record.
    await plain.goto(mailing);
    await expect(letters).toContainText(/Signed by Cara Creator on .+\. See the signature or sign again/);
    const href = await letters
      .getByRole("link", { name: "Download Round 1 Notice of Liability (PDF)" })
      .getAttribute("href");
    const notice = await plain.request.get(href!);
    expect(notice.headers()["content-type"]).toBe("application/pdf");
    const text = (await readPdf(await notice.body())).pages.join("\n");
    expect(text).toMatch(/Signed electronically by Cara Creator on .+ · record [0-9a-f]{8}/);
    expect(text).toContain(`· record ${record.slice(0, 8)}`);
    expect(text).not.toContain("Signed: ____");
  } finally {
    await context.close();
  }
});

test("with JavaScript the member draws the signature on a pad loaded when chosen, and the download keeps a hand line when asked", async ({
  page,
  signIn,
}) => {
  const version = `Drawn ${Date.now().toString(36)}`;
  await signIn("creator");
  await saveRoundOne(page, version, "Cara Creator", "250");
  const padRequests: string[] = [];
  page.on("request", (request) => {
    if (/\/signature_pad-[^/]+\.js$/.test(request.url())) padRequests.push(request.url());
  });
  await page.goto(`/nol/creator/traffic-stop/sign?version=${encodeURIComponent(version)}&round=1`);
  const draw = page.getByLabel("Draw my signature");
  await expect(draw).toBeEnabled();
  expect(padRequests).toEqual([]);

  // Drawn without a stroke: the form asks for the drawing.
  await page.getByLabel(CONSENT).check();
  await draw.check();
  const pad = page.getByRole("img", { name: "Draw your signature" });
  /** A stroke across the pad, as a hand draws it, once the pad is ready. */
  const drawStroke = async () => {
    await expect(page.getByRole("button", { name: "Clear the drawing" })).toBeEnabled();
    const box = (await pad.boundingBox())!;
    await page.mouse.move(box.x + 30, box.y + box.height * 0.7);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++)
      await page.mouse.move(box.x + 30 + i * 25, box.y + box.height * (0.7 - 0.4 * Math.sin(i / 2)), { steps: 3 });
    await page.mouse.up();
  };
  await expect(page.getByText("Sign inside the box. If you cannot draw, choose to type your name.")).toBeVisible();
  expect(padRequests).toHaveLength(1);
  await page.getByRole("button", { name: "Sign the notice" }).click();
  await expect(page.getByText("Draw your signature in the box, or choose to type your name")).toBeVisible();

  await drawStroke();
  await page
    .getByLabel("Keeps a line for me to sign by hand (the letters mailed for me are signed all the same)")
    .check();
  await page.getByRole("button", { name: "Sign the notice" }).click();
  await expect(
    page.getByText(
      "Signed. Your signature goes on each letter mailed for you; the PDF you download keeps a line to sign by hand.",
    ),
  ).toBeVisible();
  const summary = page.getByRole("region", { name: /^Signed by Cara Creator on / });
  await expect(summary).toContainText("Drawn");
  await expect(summary).toContainText("The PDF you download keeps a line for you to sign by hand.");

  const href = await page.getByRole("link", { name: "Read the notice you sign (PDF)" }).getAttribute("href");
  const { doc, pages } = await readPdf(await (await page.request.get(href!)).body());
  expect(pages.join("\n")).toContain("Signed: ______");
  expect(pages.join("\n")).not.toContain("Signed electronically");
  expect(imageCount(doc)).toBe(0);

  // Signed again, the download carrying it: the drawing is in the PDF, with the new record.
  await expect(page.getByLabel(CONSENT)).not.toBeChecked();
  await expect(page.getByLabel("Keeps a line for me to sign by hand")).toBeChecked();
  await page.getByLabel(CONSENT).check();
  await page.getByLabel("Carries my signature").check();
  await draw.check();
  await drawStroke();
  await page.getByRole("button", { name: "Sign again" }).click();
  await expect(summary).toContainText("The PDF you download carries your signature.");
  const record = /Record\s*([0-9a-f-]{36})/.exec((await summary.textContent()) ?? "")![1]!;
  const signed = await readPdf(await (await page.request.get(href!)).body());
  expect(signed.pages.join("\n")).toContain(`· record ${record.slice(0, 8)}`);
  expect(imageCount(signed.doc)).toBe(1);
});
