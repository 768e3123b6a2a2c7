import { describe, expect, it } from "vitest";
import { DEFAULT_DISCLAIMER } from "~/domain/documents/templates";
import { notarizedPdf, notaryMark, type CertificateInput } from "~/providers/notary/certificate.server";
import { PDFDocument } from "pdf-lib";
import { renderPdf } from "~/services/documents/pdf.server";
import { pageLayout, readPdf, rectsMeet, type Rect } from "../helpers/pdf";

const STAMP_WORDS = new Set(["SANDBOX", "NOTARY", "NOT LEGAL"]);

async function stampedLastPage(lineCount: number) {
  const lines = Array.from({ length: lineCount }, (_, i) => ({
    style: "text" as const,
    text: `Line ${i + 1}: the respondent was given notice of the claim on the date the record shows, and has not answered.`,
  }));
  const original = await renderPdf({
    letters: [lines],
    footer: DEFAULT_DISCLAIMER,
    title: "Test",
    subject: "Test",
    author: "Test",
    keywords: [],
  });
  const stamped = await notarizedPdf(original, {
    transactionId: "ot_sb_test",
    documentName: "test.pdf",
    signerName: "Test Signer",
    signerEmail: "signer@example.com",
    signedAt: new Date("2026-03-02T10:00:00Z"),
  });
  const { doc } = await readPdf(stamped);
  const pages = doc.getPages();
  // The certificate page comes last: the stamp is on the document's last page before it.
  return pageLayout(doc, pages.at(-2)!);
}

const union = (rects: Rect[]): Rect => {
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  return {
    x,
    y,
    width: Math.max(...rects.map((r) => r.x + r.width)) - x,
    height: Math.max(...rects.map((r) => r.y + r.height)) - y,
  };
};

describe("the sandbox notary's stamp", () => {
  // A short page, a page filled to a little above the footer, and a page filled to the footer.
  it.each([3, 38, 42, 47])("covers no text of a last page with %i lines", async (lineCount) => {
    const { texts, paths } = await stampedLastPage(lineCount);
    expect(paths.length).toBeGreaterThanOrEqual(2);
    const stamp = union(paths);
    const pageText = texts.filter((t) => !STAMP_WORDS.has(t.text) && !/^\d{4}-\d{2}-\d{2}$/.test(t.text));
    expect(pageText.some((t) => t.text.startsWith("Not legal advice"))).toBe(true);
    expect(pageText.some((t) => /^Page \d+ of \d+$/.test(t.text))).toBe(true);
    const covered = pageText.filter((t) => rectsMeet(t, stamp)).map((t) => t.text);
    expect(covered).toEqual([]);
  });
});

describe("the notarized document's page numbers", () => {
  it("numbers every page at its top right, the certificate page counted, beside each letter's own numbers", async () => {
    const letter = (name: string, lines: number) => [
      { style: "recipient" as const, text: name },
      ...Array.from({ length: lines }, (_, i) => ({ style: "text" as const, text: `Line ${i + 1} to ${name}` })),
    ];
    const original = await renderPdf({
      letters: [letter("First Respondent", 3), letter("Second Respondent", 50)],
      footer: DEFAULT_DISCLAIMER,
      title: "Test",
      subject: "Test",
      author: "Test",
      keywords: [],
    });
    const notarized = await notarizedPdf(original, {
      transactionId: "ot_sb_test",
      documentName: "letters.pdf",
      signerName: "Test Signer",
      signerEmail: "signer@example.com",
      signedAt: new Date("2026-03-02T10:00:00Z"),
    });
    const { doc, pages } = await readPdf(notarized);
    expect(doc.getPageCount()).toBe(4);
    for (const [i, page] of doc.getPages().entries()) {
      const { texts } = await pageLayout(doc, page);
      const number = texts.find((t) => t.text.startsWith("Notarized document"));
      expect(number?.text).toBe(`Notarized document · Page ${i + 1} of 4`);
      // At the right of the page's top, above anything else on it.
      expect(number!.x + number!.width).toBeGreaterThan(page.getWidth() - 72);
      expect(Math.max(...texts.map((t) => t.y))).toBe(number!.y);
    }
    // Each letter keeps the numbers the signer saw; the certificate page is the document's last.
    expect(pages.slice(0, 3).map((p) => /Letter \d of \d · Page \d of \d/.exec(p)?.[0])).toEqual([
      "Letter 1 of 2 · Page 1 of 1",
      "Letter 2 of 2 · Page 1 of 2",
      "Letter 2 of 2 · Page 2 of 2",
    ]);
    expect(pages[3]).toContain("Certificate of notarial act");
  });
});

describe("the notary's mark", () => {
  const input: CertificateInput = {
    transactionId: "ot_sb_AbCdEfGhIjKlMnOpQrStUv",
    documentName: "letters.pdf",
    signerName: "Test Signer",
    signerEmail: "signer@example.com",
    signedAt: new Date("2026-03-02T10:00:00Z"),
  };

  /** Each page's mark and number, as drawn. */
  async function marksOf(notarized: Uint8Array) {
    const { doc } = await readPdf(notarized);
    return Promise.all(
      doc.getPages().map(async (page) => {
        const { texts } = await pageLayout(doc, page);
        return {
          page,
          texts,
          mark: texts.find((t) => t.text === notaryMark(input)),
          number: texts.find((t) => t.text.startsWith("Notarized document")),
        };
      }),
    );
  }

  it("marks every page along its top, the certificate page too: notarized, the notary, the day and the transaction", async () => {
    const letter = (name: string, lines: number) => [
      { style: "recipient" as const, text: name },
      ...Array.from({ length: lines }, (_, i) => ({ style: "text" as const, text: `Line ${i + 1} to ${name}` })),
    ];
    const original = await renderPdf({
      letters: [letter("First Respondent", 3), letter("Second Respondent", 50), letter("Third Respondent", 3)],
      footer: DEFAULT_DISCLAIMER,
      title: "Test",
      subject: "Test",
      author: "Test",
      keywords: [],
    });
    expect(notaryMark(input)).toBe(
      "Notarized · Sandbox notary (no commission, not legal) · 2026-03-02 · ot_sb_AbCdEfGhIjKlMnOpQrStUv",
    );
    const pages = await marksOf(await notarizedPdf(original, input));
    expect(pages).toHaveLength(5);
    for (const { texts, mark, number } of pages) {
      expect(mark).toBeDefined();
      // At the page's top left, on the number's line, above anything else on the page, clear of the number.
      expect(mark!.x).toBeLessThan(72);
      expect(mark!.y).toBe(number!.y);
      expect(Math.max(...texts.map((t) => t.y))).toBe(mark!.y);
      expect(rectsMeet(mark!, number!)).toBe(false);
    }
  });

  it("sets the mark smaller on a narrow page, below the page's number when the two do not fit on one line", async () => {
    const narrow = await PDFDocument.create();
    narrow.addPage([340, 480]).drawText("A narrow page", { x: 40, y: 200, size: 11 });
    const pages = await marksOf(await notarizedPdf(await narrow.save(), input));
    expect(pages).toHaveLength(2);
    for (const { page, mark, number } of pages) {
      expect(mark).toBeDefined();
      expect(mark!.height).toBeLessThan(number!.height);
      expect(mark!.y).toBeLessThan(number!.y);
      expect(rectsMeet(mark!, number!)).toBe(false);
      expect(mark!.x).toBeGreaterThanOrEqual(0);
      expect(mark!.x + mark!.width).toBeLessThanOrEqual(page.getWidth());
    }
  });
});
