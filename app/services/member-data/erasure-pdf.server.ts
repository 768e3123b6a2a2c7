import { decodePDFRawStream, PDFArray, PDFDocument, PDFName, PDFRawStream, PDFRef, type PDFPage } from "pdf-lib";
import { ERASED_MARK } from "./erasure-text.server";

/**
 * A stored PDF made again without the member: each string a page shows (the app's PDFs draw
 * text in the standard fonts, one `<hex> Tj` a line) and each metadata field, with the member's
 * words replaced by the erased mark. Layout, images and every other page stay as they were.
 */

const SHOWN = /<([0-9A-Fa-f]*)>(\s*Tj)/g;

export const isPdf = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 5)).toString("latin1") === "%PDF-";

/** The page's content streams, by reference: only a referenced stream can be replaced. */
function contentRefs(doc: PDFDocument, page: PDFPage): PDFRef[] {
  const contents = page.node.get(PDFName.of("Contents"));
  const listed = contents instanceof PDFRef ? doc.context.lookup(contents) : contents;
  if (listed instanceof PDFArray) return listed.asArray().filter((item): item is PDFRef => item instanceof PDFRef);
  return contents instanceof PDFRef ? [contents] : [];
}

function showWithout(operators: string, words: RegExp): string {
  return operators.replace(SHOWN, (whole, hex: string, op: string) => {
    const text = Buffer.from(hex, "hex").toString("latin1");
    const cleaned = text.replace(words, ERASED_MARK);
    return cleaned === text ? whole : `<${Buffer.from(cleaned, "latin1").toString("hex").toUpperCase()}>${op}`;
  });
}

/** The PDF without the words, or null when it holds none of them. */
export async function pdfWithout(bytes: Uint8Array, words: RegExp): Promise<Uint8Array | null> {
  try {
    return await remade(await PDFDocument.load(bytes, { updateMetadata: false }), words);
  } catch {
    // Bytes no reader makes a page of show no words either: they are left as they are.
    return null;
  }
}

async function remade(doc: PDFDocument, words: RegExp): Promise<Uint8Array | null> {
  let changed = false;
  for (const page of doc.getPages()) {
    for (const ref of contentRefs(doc, page)) {
      const stream = doc.context.lookup(ref);
      if (!(stream instanceof PDFRawStream)) continue;
      const operators = Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
      const cleaned = showWithout(operators, words);
      if (cleaned === operators) continue;
      doc.context.assign(ref, doc.context.flateStream(Buffer.from(cleaned, "latin1")));
      changed = true;
    }
  }
  const fields = [
    [doc.getTitle(), (v: string) => doc.setTitle(v)],
    [doc.getAuthor(), (v: string) => doc.setAuthor(v)],
    [doc.getSubject(), (v: string) => doc.setSubject(v)],
    [doc.getKeywords(), (v: string) => doc.setKeywords([v])],
    [doc.getCreator(), (v: string) => doc.setCreator(v)],
  ] as const;
  for (const [value, set] of fields) {
    const cleaned = value?.replace(words, ERASED_MARK);
    if (value === undefined || cleaned === value) continue;
    set(cleaned!);
    changed = true;
  }
  return changed ? doc.save() : null;
}
