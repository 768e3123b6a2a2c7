import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from "pdf-lib";

/**
 * The sandbox notary's "notarized" PDF: the signer's document, a stamp on its last page, and a
 * certificate page after it. Every page says plainly that this is no legal notarization.
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

function drawStamp(page: PDFPage, font: PDFFont, x: number, y: number, signedAt: Date) {
  page.drawEllipse({ x, y, xScale: 62, yScale: 62, borderColor: SEAL, borderWidth: 2, borderOpacity: 0.8 });
  page.drawEllipse({ x, y, xScale: 54, yScale: 54, borderColor: SEAL, borderWidth: 0.8, borderOpacity: 0.8 });
  const lines = ["SANDBOX", "NOTARY", signedAt.toISOString().slice(0, 10), "NOT LEGAL"];
  lines.forEach((line, i) => {
    const size = i === 2 ? 8 : 10;
    const width = font.widthOfTextAtSize(line, size);
    page.drawText(line, { x: x - width / 2, y: y + 16 - i * 13, size, font, color: SEAL, opacity: 0.85 });
  });
}

/** The original pages, a stamp on the last of them, then the certificate page. */
export async function notarizedPdf(original: Uint8Array, input: CertificateInput): Promise<Uint8Array> {
  const document = await PDFDocument.load(original, { updateMetadata: false });
  const regular = await document.embedFont(StandardFonts.Helvetica);
  const bold = await document.embedFont(StandardFonts.HelveticaBold);

  const pages = document.getPages();
  const last = pages.at(-1);
  if (last) {
    const { width } = last.getSize();
    drawStamp(last, bold, width - 80, 80, input.signedAt);
  }

  const [pageWidth, pageHeight] = last ? [last.getWidth(), last.getHeight()] : [612, 792];
  const page = document.addPage([pageWidth, pageHeight]);
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
