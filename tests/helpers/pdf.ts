import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, StandardFonts, type PDFPage } from "pdf-lib";

/**
 * The text drawn on each page of a PDF: its content streams decompressed and each shown
 * string (`<hex> Tj`, as pdf-lib draws text in a standard font) decoded, one line per string.
 */
function pageText(doc: PDFDocument, page: PDFPage): string {
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  const shown: string[] = [];
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) continue;
    const operators = Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
    for (const match of operators.matchAll(/<([0-9A-Fa-f]*)> Tj/g))
      shown.push(Buffer.from(match[1]!, "hex").toString("latin1"));
  }
  return shown.join("\n");
}

export async function readPdf(bytes: Uint8Array | ArrayBuffer) {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  return { doc, pages: doc.getPages().map((page) => pageText(doc, page)) };
}

export type Rect = { x: number; y: number; width: number; height: number };
export type PlacedText = Rect & { text: string };

export const rectsMeet = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Where a page's strings and stroked paths are: each string's box from its text matrix and
 * font size (width as Helvetica draws it, from the baseline's descender to the cap height),
 * and each path's bounding box from its points.
 */
export async function pageLayout(doc: PDFDocument, page: PDFPage) {
  const helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  const texts: PlacedText[] = [];
  const paths: Rect[] = [];
  let size = 0;
  let at = [0, 0];
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) continue;
    const operators = Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
    let points: number[][] = [];
    for (const line of operators.split("\n")) {
      const parts = line.trim().split(/\s+/);
      const op = parts.at(-1);
      const numbers = parts.slice(0, -1).map(Number);
      if (op === "Tf") size = numbers.at(-1)!;
      else if (op === "Tm") at = numbers.slice(4, 6);
      else if (op === "Tj") {
        const text = Buffer.from(line.match(/<([0-9A-Fa-f]*)>/)![1]!, "hex").toString("latin1");
        const width = helvetica.widthOfTextAtSize(text.replace(/[^\x20-\x7e]/g, "?"), size);
        texts.push({ text, x: at[0]!, y: at[1]! - size * 0.2, width, height: size * 0.9 });
      } else if (op === "m") points = [numbers];
      else if (op === "c" || op === "l") points.push(numbers);
      else if ((op === "S" || op === "B" || op === "f") && points.length > 0) {
        const xs = points.flatMap((p) => p.filter((_, i) => i % 2 === 0));
        const ys = points.flatMap((p) => p.filter((_, i) => i % 2 === 1));
        const x = Math.min(...xs);
        const y = Math.min(...ys);
        paths.push({ x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y });
        points = [];
      }
    }
  }
  return { texts, paths };
}
