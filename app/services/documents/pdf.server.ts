import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { encodableText, wrapText, type DocumentLine } from "~/domain/documents/layout";

/**
 * Draws a document's lines on US Letter pages with pdf-lib's standard fonts, the community's
 * notice in each page's footer, and the document's names in its metadata.
 */

export type PdfInput = {
  lines: DocumentLine[];
  /** The "not legal advice" notice, printed at the foot of every page. */
  footer: string;
  title: string;
  subject: string;
  author: string;
  keywords: string[];
};

const PAGE: [number, number] = [612, 792];
const MARGIN = 64;
const TEXT_SIZE = 11;
const HEADING_SIZE = 14;
const FOOTER_SIZE = 8;
const LEADING = 1.4;
const GREY = rgb(0.35, 0.35, 0.35);

/**
 * The characters each font can draw, kept for the process. The fonts are PDF's standard ones:
 * no font file is embedded in a document, only their names, so each document stays small.
 */
const characterSets = new Map<StandardFonts, Set<number>>();

function supportsOf(name: StandardFonts, font: PDFFont): (char: string) => boolean {
  let set = characterSets.get(name);
  if (!set) {
    set = new Set(font.getCharacterSet());
    characterSets.set(name, set);
  }
  const known = set;
  return (char) => known.has(char.codePointAt(0)!);
}

type Face = { font: PDFFont; size: number; supports: (char: string) => boolean };

async function face(doc: PDFDocument, name: StandardFonts, size: number): Promise<Face> {
  const font = await doc.embedFont(name);
  return { font, size, supports: supportsOf(name, font) };
}

/**
 * Loads the fonts' metrics and character sets once for the process (pdf-lib keeps the metrics
 * of a standard font after its first use, about 150 ms), so no member's first document waits.
 */
export async function preloadDocumentFonts(): Promise<void> {
  const doc = await PDFDocument.create();
  for (const name of [StandardFonts.Helvetica, StandardFonts.HelveticaBold]) await face(doc, name, TEXT_SIZE);
}

/** A line of text in a face, wrapped to the width, in characters the face has. */
function wrapped(f: Face, text: string, width: number): string[] {
  return wrapText(encodableText(text, f.supports), width, (t) => f.font.widthOfTextAtSize(t, f.size));
}

export async function renderPdf(input: PdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const text = await face(doc, StandardFonts.Helvetica, TEXT_SIZE);
  const heading = await face(doc, StandardFonts.HelveticaBold, HEADING_SIZE);
  const small = await face(doc, StandardFonts.Helvetica, FOOTER_SIZE);
  const width = PAGE[0] - 2 * MARGIN;

  const footerLines = input.footer.split("\n").flatMap((line) => wrapped(small, line, width));
  const footerHeight = (footerLines.length + 1) * FOOTER_SIZE * LEADING;
  const bottom = MARGIN + footerHeight + TEXT_SIZE;

  const top = PAGE[1] - MARGIN;
  const pages: PDFPage[] = [doc.addPage(PAGE)];
  let y = top;
  for (const line of input.lines) {
    const f = line.style === "heading" ? heading : text;
    if (line.style === "heading" && y < top) y -= f.size * 0.6;
    for (const part of wrapped(f, line.text, width)) {
      if (y - f.size * LEADING < bottom) {
        pages.push(doc.addPage(PAGE));
        y = top;
      }
      y -= f.size * LEADING;
      if (part) pages.at(-1)!.drawText(part, { x: MARGIN, y, size: f.size, font: f.font });
    }
  }

  pages.forEach((p, i) => {
    let fy = MARGIN + footerHeight - FOOTER_SIZE;
    for (const line of footerLines) {
      p.drawText(line, { x: MARGIN, y: fy, size: FOOTER_SIZE, font: small.font, color: GREY });
      fy -= FOOTER_SIZE * LEADING;
    }
    const number = `Page ${i + 1} of ${pages.length}`;
    p.drawText(number, {
      x: PAGE[0] - MARGIN - small.font.widthOfTextAtSize(number, FOOTER_SIZE),
      y: fy,
      size: FOOTER_SIZE,
      font: small.font,
      color: GREY,
    });
  });

  // Metadata is stored as UTF-16 text: any character goes.
  doc.setTitle(input.title);
  doc.setSubject(input.subject);
  doc.setAuthor(input.author);
  doc.setKeywords(input.keywords);
  doc.setCreator("memberhall");
  return doc.save();
}
