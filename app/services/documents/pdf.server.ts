import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFImage, type PDFPage } from "pdf-lib";
import { encodableText, wrapText, type DocumentLine } from "~/domain/documents/layout";
import { HAND_SIGNATURE_LINE, type PrintedSignature } from "~/domain/documents/signature";
import { ADDRESS_SIZES, LETTER_AREAS, LETTER_BODY_TOP, pageLabel, placeBlock, SHEET } from "~/domain/documents/letters";

/**
 * Draws a document's letters on US Letter pages with pdf-lib's standard fonts: each letter's
 * address blocks where a #10 window envelope shows them (LETTER_AREAS), its text after them,
 * the community's notice and the page's number in each page's footer, the member's signature
 * where a letter's text marks it (or a line to sign by hand), and the document's names in its
 * metadata.
 */

export type PdfInput = {
  /** The document's letters, each from a new page and numbered on its own; a document that is no letter is one. */
  letters: DocumentLine[][];
  /** The "not legal advice" notice, printed at the foot of every page. */
  footer: string;
  title: string;
  subject: string;
  author: string;
  keywords: string[];
  /** The member's signature, drawn where a letter's lines place it; null or missing: a line to sign by hand there. */
  signature?: PrintedSignature | null;
  /**
   * The document's date, its PDF's creation and change dates: the same document then makes the
   * same bytes, so a signature's SHA-256 of it can be checked again. Missing: now.
   */
  date?: Date;
};

const PAGE: [number, number] = [SHEET.width, SHEET.height];
const MARGIN = 64;
const TEXT_SIZE = 11;
const HEADING_SIZE = 14;
const FOOTER_SIZE = 8;
const LEADING = 1.4;
const GREY = rgb(0.35, 0.35, 0.35);
/** A signature's box: a drawing fits in it, a typed name is written this size. */
const SIGNATURE_BOX = { width: 220, height: 54 };
const TYPED_SIGNATURE_SIZE = 22;
const CAPTION_SIZE = 8;

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
  for (const name of [StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.TimesRomanItalic])
    await face(doc, name, TEXT_SIZE);
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
  const measure = (t: string, size: number) => text.font.widthOfTextAtSize(t, size);
  const signature = input.signature ? await signatureMarks(doc, input.signature, width) : null;

  /** Each letter's pages, in order. */
  const letters: PDFPage[][] = [];
  for (const lines of input.letters) {
    const page = doc.addPage(PAGE);
    const pages = [page];
    letters.push(pages);
    let start = top;
    for (const [style, area, sizes] of [
      ["return-address", LETTER_AREAS.returnAddress, ADDRESS_SIZES.returnAddress],
      ["recipient", LETTER_AREAS.recipient, ADDRESS_SIZES.recipient],
    ] as const) {
      const block = lines
        .filter((l) => l.style === style && l.text.trim())
        .map((l) => encodableText(l.text, text.supports));
      if (block.length === 0 && !lines.some((l) => l.style === style)) continue;
      for (const placed of placeBlock(block, area, sizes, measure))
        page.drawText(placed.text, { x: placed.x, y: placed.y, size: placed.size, font: text.font });
      // The text starts below the window even when a block is empty: the window shows no text.
      start = Math.min(start, LETTER_BODY_TOP);
    }
    let y = start;
    /** Room for `height` more on the page, else a new page. */
    const room = (height: number) => {
      if (y - height >= bottom) return;
      pages.push(doc.addPage(PAGE));
      y = top;
    };
    const write = (f: Face, value: string, color?: ReturnType<typeof rgb>) => {
      for (const part of wrapped(f, value, width)) {
        room(f.size * LEADING);
        y -= f.size * LEADING;
        if (part) pages.at(-1)!.drawText(part, { x: MARGIN, y, size: f.size, font: f.font, color });
      }
    };
    for (const line of lines) {
      if (line.style === "return-address" || line.style === "recipient") continue;
      if (line.style === "signature") {
        if (signature) {
          const caption = wrapped(signature.caption, input.signature!.caption, width);
          // The signature, its rule and the caption stay together on one page.
          room(signature.height + (caption.length + 1) * CAPTION_SIZE * LEADING);
          y = signature.draw(pages.at(-1)!, MARGIN, y);
          write(signature.caption, input.signature!.caption, GREY);
        } else write(text, HAND_SIGNATURE_LINE);
        if (line.text) write(text, line.text);
        continue;
      }
      const f = line.style === "heading" ? heading : text;
      if (line.style === "heading" && y < start) y -= f.size * 0.6;
      write(f, line.text);
    }
  }

  letters.forEach((pages, l) =>
    pages.forEach((p, i) => {
      let fy = MARGIN + footerHeight - FOOTER_SIZE;
      for (const line of footerLines) {
        p.drawText(line, { x: MARGIN, y: fy, size: FOOTER_SIZE, font: small.font, color: GREY });
        fy -= FOOTER_SIZE * LEADING;
      }
      const number = pageLabel({ letter: l + 1, letters: letters.length, page: i + 1, pages: pages.length });
      p.drawText(number, {
        x: PAGE[0] - MARGIN - small.font.widthOfTextAtSize(number, FOOTER_SIZE),
        y: fy,
        size: FOOTER_SIZE,
        font: small.font,
        color: GREY,
      });
    }),
  );

  // Metadata is stored as UTF-16 text: any character goes.
  doc.setTitle(input.title);
  doc.setSubject(input.subject);
  doc.setAuthor(input.author);
  doc.setKeywords(input.keywords);
  doc.setCreator("memberhall");
  if (input.date) {
    doc.setCreationDate(input.date);
    doc.setModificationDate(input.date);
  }
  return doc.save();
}

/**
 * How a signature is drawn in this document: the drawing (embedded once, however many letters
 * carry it) or the typed name in Times Italic, over a rule, with the face of its caption.
 * `draw` puts it below `y` and answers the new `y`.
 */
async function signatureMarks(doc: PDFDocument, signature: PrintedSignature, width: number) {
  const caption = await face(doc, StandardFonts.Helvetica, CAPTION_SIZE);
  const rule = (page: PDFPage, x: number, y: number, length = SIGNATURE_BOX.width) =>
    page.drawLine({
      start: { x, y },
      end: { x: x + length, y },
      thickness: 0.6,
      color: GREY,
    });
  let image: PDFImage | null = null;
  if (signature.method === "drawn" && signature.imagePng) {
    // The PNG was checked when it was signed; one that still cannot be read must not stop a
    // letter from printing: the typed name and the caption naming the record sign it then.
    image = await doc.embedPng(signature.imagePng).catch(() => null);
  }
  if (image) {
    const scale = Math.min(SIGNATURE_BOX.width / image.width, SIGNATURE_BOX.height / image.height, 1);
    const { width, height } = { width: image.width * scale, height: image.height * scale };
    const drawn = image;
    return {
      caption,
      height: height + 6,
      draw(page: PDFPage, x: number, y: number) {
        page.drawImage(drawn, { x, y: y - height, width, height });
        rule(page, x, y - height - 2);
        return y - height - 6;
      },
    };
  }
  const italic = await face(doc, StandardFonts.TimesRomanItalic, TYPED_SIGNATURE_SIZE);
  const name = encodableText(signature.name, italic.supports);
  // A long name is written smaller, on one line within the text's width.
  const size = Math.min(TYPED_SIGNATURE_SIZE, width / Math.max(italic.font.widthOfTextAtSize(name, 1), 1));
  const length = Math.min(width, Math.max(SIGNATURE_BOX.width, italic.font.widthOfTextAtSize(name, size)));
  const height = TYPED_SIGNATURE_SIZE * LEADING + 6;
  return {
    caption,
    height,
    draw(page: PDFPage, x: number, y: number) {
      const baseline = y - TYPED_SIGNATURE_SIZE * LEADING;
      page.drawText(name, { x, y: baseline, size, font: italic.font });
      rule(page, x, baseline - 4, length);
      return y - height;
    },
  };
}
