import { fillTemplate, type DocumentValues } from "./placeholders";

/** A template's text as the lines of a document: filled, wrapped to the page, in characters the font has. */

/**
 * How a line prints: a heading, running text, a line of one of the two address blocks a
 * window envelope shows (the sender's "return" address and the respondent's "recipient" one,
 * placed by LETTER_AREAS in ./letters), or the place of the member's signature (its text, if
 * any, printed under it).
 */
export type LineStyle = "heading" | "text" | "return-address" | "recipient" | "signature";
export type DocumentLine = { style: LineStyle; text: string };

/** The marks that start a template's line, and the style each gives the line. */
const LINE_MARKS: [RegExp, LineStyle][] = [
  [/^#\s+/, "heading"],
  [/^@from(?:\s+|$)/, "return-address"],
  [/^@to(?:\s+|$)/, "recipient"],
  [/^@signature(?:\s+|$)/, "signature"],
];

const SIGNATURE_MARK = /^@signature(?:\s|$)/m;

/**
 * A line of a template that asks for a signature by hand: only underscores (four or more),
 * after at most a short label that speaks of signing ("Signed, ____", "Signature: ____"). A
 * "Date: ____" line is no signature's.
 */
export function isHandSignatureLine(line: string): boolean {
  const match = /^\s*([^_]*?)\s*_{4,}\s*$/.exec(line);
  if (!match) return false;
  const label = match[1]!;
  return label === "" || (label.length <= 40 && /sign/i.test(label));
}

/**
 * Where a signed document's template takes the signature: its "@signature" lines (-1 here, they
 * mark themselves), else its last line to sign by hand, else nowhere (null: it goes at the end).
 */
function signatureLineOf(lines: string[]): number | null {
  if (lines.some((line) => SIGNATURE_MARK.test(line))) return -1;
  const at = lines.findLastIndex(isHandSignatureLine);
  return at >= 0 ? at : null;
}

/**
 * The template filled line by line. A line starting with "# " is a heading; "@from " puts a
 * line in the return address, "@to " in the respondent's address (the envelope's window);
 * "@signature" is where the member's signature goes. A value of several lines (the
 * respondents, an address) gives several lines in its line's style, so no value can make a
 * heading, an address line or a signature of itself.
 *
 * A document the member signs (`signed`, a round's notice or bill) always has a place for the
 * signature: a template written before the mark existed has it where its last line to sign by
 * hand is (isHandSignatureLine), else after its text. Only the template's own lines are read
 * for that, never a value filled in.
 */
export function documentLines(
  body: string,
  values: Partial<DocumentValues>,
  options: { signed?: boolean } = {},
): DocumentLine[] {
  const rows = body.replace(/\r\n?/g, "\n").split("\n");
  const signatureAt = options.signed ? signatureLineOf(rows) : -1;
  const lines: DocumentLine[] = [];
  for (const [at, raw] of rows.entries()) {
    if (at === signatureAt) {
      lines.push({ style: "signature", text: "" });
      continue;
    }
    const [mark, style] = LINE_MARKS.map(([re, s]) => [re.exec(raw), s] as const).find(([m]) => m) ?? [null, "text"];
    const filled = fillTemplate(mark ? raw.slice(mark[0].length) : raw, values);
    if (style === "signature") {
      // One signature for the line, whatever its text fills to: the text prints under it.
      lines.push({ style, text: filled.replace(/\s*\n\s*/g, " ").trim() });
      continue;
    }
    for (const text of filled.split("\n")) lines.push({ style, text: text.trimEnd() });
  }
  if (signatureAt === null) lines.push({ style: "text", text: "" }, { style: "signature", text: "" });
  return lines;
}

/**
 * A line broken into lines no wider than `width` as `measure` gives widths: at spaces, and
 * inside a word only when the word alone is wider. A line's leading spaces indent each of its
 * lines.
 */
export function wrapText(text: string, width: number, measure: (text: string) => number): string[] {
  const indent = /^ */.exec(text)![0];
  const words = text.slice(indent.length).split(/ +/).filter(Boolean);
  if (words.length === 0) return [""];
  const room = Math.max(width - measure(indent), measure("W"));
  const lines: string[] = [];
  let line = "";
  const push = () => {
    lines.push(indent + line);
    line = "";
  };
  for (const word of words) {
    const joined = line ? `${line} ${word}` : word;
    if (measure(joined) <= room) {
      line = joined;
      continue;
    }
    if (line) push();
    if (measure(word) <= room) {
      line = word;
      continue;
    }
    for (const char of word) {
      if (line && measure(line + char) > room) push();
      line += char;
    }
  }
  if (line) push();
  return lines;
}

/**
 * The text in characters the font can draw: a letter with an accent the font lacks loses the
 * accent (ł stays ?, ő becomes o), a tab becomes spaces, anything else becomes "?".
 */
export function encodableText(text: string, supports: (char: string) => boolean): string {
  let out = "";
  for (const char of text) {
    if (char === "\t") out += "    ";
    else if (supports(char)) out += char;
    else {
      const plain = char.normalize("NFKD").replace(/\p{M}/gu, "");
      out += plain && [...plain].every(supports) ? plain : "?";
    }
  }
  return out;
}
