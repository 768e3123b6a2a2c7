import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, type PDFPage } from "pdf-lib";

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
