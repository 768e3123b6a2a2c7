import { fillTemplate, type DocumentValues } from "./placeholders";

/** A template's text as the lines of a document: filled, wrapped to the page, in characters the font has. */

/**
 * How a line prints: a heading, running text, or a line of one of the two address blocks a
 * window envelope shows (the sender's "return" address and the respondent's "recipient" one,
 * placed by LETTER_AREAS in ./letters).
 */
export type LineStyle = "heading" | "text" | "return-address" | "recipient";
export type DocumentLine = { style: LineStyle; text: string };

/** The marks that start a template's line, and the style each gives the line. */
const LINE_MARKS: [RegExp, LineStyle][] = [
  [/^#\s+/, "heading"],
  [/^@from(?:\s+|$)/, "return-address"],
  [/^@to(?:\s+|$)/, "recipient"],
];

/**
 * The template filled line by line. A line starting with "# " is a heading; "@from " puts a
 * line in the return address, "@to " in the respondent's address (the envelope's window). A
 * value of several lines (the respondents, an address) gives several lines in its line's
 * style, so no value can make a heading or an address line of itself.
 */
export function documentLines(body: string, values: Partial<DocumentValues>): DocumentLine[] {
  const lines: DocumentLine[] = [];
  for (const raw of body.replace(/\r\n?/g, "\n").split("\n")) {
    const [mark, style] = LINE_MARKS.map(([re, s]) => [re.exec(raw), s] as const).find(([m]) => m) ?? [null, "text"];
    const filled = fillTemplate(mark ? raw.slice(mark[0].length) : raw, values);
    for (const text of filled.split("\n")) lines.push({ style, text: text.trimEnd() });
  }
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
