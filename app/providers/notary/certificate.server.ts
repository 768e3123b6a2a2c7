import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, StandardFonts, rgb } from "pdf-lib";
import type { PDFFont, PDFPage } from "pdf-lib";
import { freeSquare, type Box } from "~/domain/documents/free-area";

/**
 * The sandbox notary's "notarized" PDF: the signer's document, the notary's mark on every page,
 * a stamp on its last page, and a certificate page after it. Every page says plainly that this
 * is no legal notarization, and carries its number in the whole notarized document, the
 * certificate page counted. Each letter of a notice is mailed on its own, cut from this PDF
 * (docs/decisions/059-notarized-letters.md): the mark on each page is what shows it notarized.
 */

export const SANDBOX_DISCLAIMER = "Sandbox notary — not a legal notarization";

export type CertificateInput = {
  transactionId: string;
  documentName: string;
  signerName: string;
  signerEmail: string;
  signedAt: Date;
};

/** The certificate's lines, in the order they are drawn: what the page says, for tests and the record. */
export function certificateLines(input: CertificateInput): string[] {
  return [
    "Certificate of notarial act",
    SANDBOX_DISCLAIMER,
    `Document: ${input.documentName}`,
    `Signer: ${input.signerName} <${input.signerEmail}>`,
    `Signed and notarized: ${input.signedAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
    `Transaction: ${input.transactionId}`,
    "This certificate was made by the built-in sandbox of this site for testing. No notary",
    "public took part, no identity was verified, and the document has no legal effect.",
  ];
}

/**
 * The notary's mark each page carries: that it was notarized, by which notary (the sandbox has
 * no commission, and its notarization no legal effect), the day, and the notarization's
 * transaction.
 */
export function notaryMark(input: Pick<CertificateInput, "transactionId" | "signedAt">): string {
  const day = input.signedAt.toISOString().slice(0, 10);
  return `Notarized · Sandbox notary (no commission, not legal) · ${day} · ${input.transactionId}`;
}

/** Whether the PDF can be read (and so notarized later): the sandbox refuses what Proof would. */
export async function readablePdf(pdf: Uint8Array): Promise<boolean> {
  try {
    await PDFDocument.load(pdf, { updateMetadata: false });
    return true;
  } catch {
    return false;
  }
}

/** Text a standard font can draw: anything outside its character set becomes "?". */
function drawable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return [...text].map((character) => (known.has(character.codePointAt(0)!) ? character : "?")).join("");
}

const INK = rgb(0.1, 0.1, 0.1);
const SEAL = rgb(0.55, 0.1, 0.1);

/** The stamp's outer radius at full size. */
const STAMP_RADIUS = 62;

/** The round stamp centred on (x, y), at `scale` of its full size. */
function drawStamp(page: PDFPage, font: PDFFont, x: number, y: number, signedAt: Date, scale = 1) {
  const ring = { x, y, borderColor: SEAL, borderOpacity: 0.8 };
  page.drawEllipse({ ...ring, xScale: STAMP_RADIUS * scale, yScale: STAMP_RADIUS * scale, borderWidth: 2 * scale });
  page.drawEllipse({ ...ring, xScale: 54 * scale, yScale: 54 * scale, borderWidth: 0.8 * scale });
  const lines = ["SANDBOX", "NOTARY", signedAt.toISOString().slice(0, 10), "NOT LEGAL"];
  lines.forEach((line, i) => {
    const size = (i === 2 ? 8 : 10) * scale;
    const width = font.widthOfTextAtSize(line, size);
    page.drawText(line, { x: x - width / 2, y: y + (16 - i * 13) * scale, size, font, color: SEAL, opacity: 0.85 });
  });
}

const TEXT_OPERATORS =
  /\/[^\s/]+\s+(-?[\d.]+)\s+Tf|(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+Tm|<([0-9A-Fa-f]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g;

/**
 * Where a page shows text: a box for each string its content draws (at the position and size
 * the text matrix and font set), as wide as the bold face would draw it, so never narrower.
 */
function textBoxes(document: PDFDocument, page: PDFPage, measure: PDFFont): Box[] {
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => document.context.lookup(r)) : [contents];
  const boxes: Box[] = [];
  let fontSize = 12;
  let matrix = { scale: 1, x: 0, y: 0 };
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) continue;
    const operators = Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
    for (const m of operators.matchAll(TEXT_OPERATORS)) {
      if (m[1] !== undefined) fontSize = Math.abs(Number(m[1]));
      else if (m[2] !== undefined)
        matrix = { scale: Math.hypot(Number(m[2]), Number(m[3])), x: Number(m[6]), y: Number(m[7]) };
      else {
        const text = m[8] !== undefined ? Buffer.from(m[8], "hex").toString("latin1") : m[9]!;
        const size = fontSize * matrix.scale;
        const width = measure.widthOfTextAtSize(drawable(measure, text), size);
        boxes.push({ x: matrix.x, y: matrix.y - size * 0.25, width, height: size * 1.2 });
      }
    }
  }
  return boxes;
}

/**
 * Stamps the document's last page where no text is: the lowest free place, the rightmost of
 * its row (above the footer of a full page); smaller where the full stamp finds no room; on
 * a page with no room at all, only the certificate page carries it.
 */
function stampLastPage(document: PDFDocument, page: PDFPage, font: PDFFont, signedAt: Date, drawnSince: Box[]) {
  const boxes = [...textBoxes(document, page, font), ...drawnSince];
  for (const scale of [1, 0.75, 0.5]) {
    const side = 2 * STAMP_RADIUS * scale + 4;
    const spot = freeSquare(boxes, page.getSize(), side, { margin: 18, gap: 4 });
    if (spot) return drawStamp(page, font, spot.x + side / 2, spot.y + side / 2, signedAt, scale);
  }
}

/** The number a page of the notarized document carries at its top right. */
export function notarizedPageLabel(page: number, pages: number): string {
  return `Notarized document · Page ${page} of ${pages}`;
}

const NUMBER_SIZE = 8;
/** The number's baseline and right edge, from the page's top and right edges: above any letter's return address. */
const NUMBER_TOP = 24;
const NUMBER_RIGHT = 36;
/** The mark's left edge, from the page's left edge, on the number's baseline. */
const MARK_LEFT = 36;
/** The room kept between the mark and the number: a narrow page sets the mark smaller, down to MARK_SMALLEST, or below the number. */
const MARK_GAP = 12;
const MARK_SMALLEST = 5;

const lineBox = (x: number, y: number, width: number, size: number): Box => ({
  x,
  y: y - size * 0.25,
  width,
  height: size * 1.2,
});

/**
 * Marks and numbers every page of the notarized document, the certificate page counted, along
 * its top, above any letter's return address: the notary's mark at the left (below the number
 * on a page too narrow for both on one line), the page's number in the whole at the right. The document's own numbers (each letter's, in its footer) stay as
 * the signer saw them. What each page now shows there, by page.
 */
function markPages(document: PDFDocument, font: PDFFont, mark: string): Box[][] {
  const pages = document.getPages();
  const text = drawable(font, mark);
  return pages.map((page, i) => {
    const label = notarizedPageLabel(i + 1, pages.length);
    const width = font.widthOfTextAtSize(label, NUMBER_SIZE);
    const x = page.getWidth() - NUMBER_RIGHT - width;
    const y = page.getHeight() - NUMBER_TOP;
    page.drawText(label, { x, y, size: NUMBER_SIZE, font, color: INK });
    // Beside the number where it fits there; else on a line of its own below it, across the page.
    const fitted = (room: number) => Math.min(NUMBER_SIZE, (room / font.widthOfTextAtSize(text, 1)) * 0.99);
    const beside = fitted(x - MARK_GAP - MARK_LEFT);
    const [size, markY] =
      beside >= MARK_SMALLEST
        ? [beside, y]
        : [Math.max(MARK_SMALLEST, fitted(page.getWidth() - 2 * MARK_LEFT)), y - NUMBER_SIZE * 1.5];
    page.drawText(text, { x: MARK_LEFT, y: markY, size, font, color: SEAL });
    return [lineBox(x, y, width, NUMBER_SIZE), lineBox(MARK_LEFT, markY, font.widthOfTextAtSize(text, size), size)];
  });
}

/** The original pages, a stamp on the last of them, then the certificate page; each page marked and numbered in the whole. */
export async function notarizedPdf(original: Uint8Array, input: CertificateInput): Promise<Uint8Array> {
  const document = await PDFDocument.load(original, { updateMetadata: false });
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);

  const pages = document.getPages();
  const last = pages.at(-1);

  const [pageWidth, pageHeight] = last ? [last.getWidth(), last.getHeight()] : [612, 792];
  const page = document.addPage([pageWidth, pageHeight]);
  // Marked and numbered before the stamp is placed, so the stamp keeps clear of both.
  const marked = markPages(document, regular, notaryMark(input));
  if (last) stampLastPage(document, last, bold, input.signedAt, marked.at(-2)!);
  const margin = 56;
  let y = pageHeight - margin - 10;
  certificateLines(input).forEach((line, i) => {
    const font = i < 2 ? bold : regular;
    const size = i === 0 ? 18 : i === 1 ? 12 : 11;
    page.drawText(drawable(font, line), { x: margin, y, size, font, color: i === 1 ? SEAL : INK });
    y -= i === 1 ? 30 : 20;
  });
  drawStamp(page, bold, pageWidth - margin - 70, y - 90, input.signedAt);
  page.drawText(drawable(bold, SANDBOX_DISCLAIMER), { x: margin, y: margin, size: 9, font: bold, color: SEAL });

  document.setTitle(drawable(regular, `Notarized: ${input.documentName}`));
  document.setSubject(SANDBOX_DISCLAIMER);
  document.setKeywords(["sandbox notary", input.transactionId]);
  document.setProducer("memberhall sandbox notary");
  document.setModificationDate(input.signedAt);
  return document.save();
}
