import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { readPdf } from "../../../tests/helpers/pdf";
import { pdfWithout } from "./erasure-pdf.server";

/** Another member's letter that names the member erased: on its page and in its metadata. */
async function letter() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText("Bo Other, 3 Oriel Mews", { x: 72, y: 700, size: 11, font });
  page.drawText("Witness: ZOE QUILLFEATHER of 17 Larkspur Crescent", { x: 72, y: 680, size: 11, font });
  page.drawText("Respondent: Officer Adams", { x: 72, y: 660, size: 11, font });
  doc.setTitle("Notice: Bo Other");
  doc.setKeywords(["Zoe Quillfeather", "round 1"]);
  return doc.save();
}

describe("a stored PDF made again without the member", () => {
  const words = /zoe quillfeather|17 Larkspur Crescent/gi;

  it("replaces the member's words on its pages and in its metadata, and keeps the rest", async () => {
    const made = await pdfWithout(await letter(), words);
    expect(made).not.toBeNull();
    const { doc, pages } = await readPdf(made!);
    expect(pages).toEqual(["Bo Other, 3 Oriel Mews\nWitness: [erased] of [erased]\nRespondent: Officer Adams"]);
    expect([doc.getTitle(), doc.getKeywords()]).toEqual(["Notice: Bo Other", "[erased] round 1"]);
  });

  it("answers null for a PDF that does not name them, and for bytes that are no PDF", async () => {
    expect(await pdfWithout(await letter(), /Yves Marchbanks/gi)).toBeNull();
    expect(await pdfWithout(new TextEncoder().encode("%PDF-1.7 broken"), words)).toBeNull();
  });
});
