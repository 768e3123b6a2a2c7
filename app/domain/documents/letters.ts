import type { RespondentAddress } from "../nol/billing";
import { wrapText } from "./layout";

/**
 * A mailed notice is a letter to each respondent: the sender's return address and the
 * respondent's address where a #10 window envelope shows them, the notice after them, each
 * letter from a new page and numbered on its own (each is mailed on its own).
 */

/** PDF's unit: a point, 1/72 of an inch. */
export const INCH = 72;

/** US Letter, 8½" × 11". */
export const SHEET = { width: 8.5 * INCH, height: 11 * INCH } as const;

/** A rectangle on the sheet in PDF's coordinates: x from the left edge, y from the bottom edge. */
export type Area = { x: number; y: number; width: number; height: number };

/** A rectangle given as print shops give it, in inches from the sheet's top-left corner. */
function fromTopLeft(left: number, top: number, width: number, height: number): Area {
  return { x: left * INCH, y: SHEET.height - (top + height) * INCH, width: width * INCH, height: height * INCH };
}

/**
 * Where a #10 envelope's windows fall on a US Letter sheet folded in three, the address panel
 * outward and resting on the envelope's bottom fold:
 * - recipient: USPS's standard #10 window, 4½" × 1⅛", ⅞" from the envelope's left edge and
 *   ½" from its bottom; on the sheet, ⅞" from the left and 2" from the top.
 * - returnAddress: a double-window #10's upper window (about 3½" × ⅞" on the sheet, ⅝" from
 *   the left and ½" from the top). With a single-window envelope it is simply printed there.
 */
export const LETTER_AREAS = {
  returnAddress: fromTopLeft(0.625, 0.5, 3.5, 0.875),
  recipient: fromTopLeft(0.875, 2, 4.5, 1.125),
} as const satisfies Record<string, Area>;

/** The room kept between a window's edge and its text: the sheet moves a little in its envelope. */
export const AREA_INSET = 4;

/** Where a letter's text starts on its first page: a quarter inch below the window. */
export const LETTER_BODY_TOP = LETTER_AREAS.recipient.y - 0.25 * INCH;

/** The text sizes each address block tries, largest first, until its lines fit its window. */
export const ADDRESS_SIZES = { returnAddress: [9, 8, 7], recipient: [11, 10, 9, 8] } as const;

/** Helvetica's line spacing, and its ascent and descent (as parts of its size) rounded up. */
const LEADING = 1.2;
const ASCENT = 0.8;
const DESCENT = 0.25;

const clean = (parts: string[]) => parts.map((p) => p.trim()).filter(Boolean);

// A US address's last line: a city, then "IL 62701" (the state and the ZIP or ZIP+4).
const STATE_AND_ZIP = /^[A-Za-z]{2}\s+\d{5}(?:-\d{4})?$/;

/**
 * An address as the lines of an address block. Typed in lines, it keeps them; typed on one
 * line, it breaks at its commas, the city staying with its state and ZIP as USPS writes the
 * last line ("1 Precinct Way, Springfield, IL 62701" → "1 Precinct Way" / "Springfield, IL
 * 62701"). A hosted form's parts by name print street lines, then "City, ST ZIP", then the
 * country.
 */
export function addressLines(address: RespondentAddress | string | null | undefined): string[] {
  if (!address) return [];
  if (typeof address === "string") {
    const text = address.replace(/\r\n?/g, "\n");
    if (text.includes("\n")) return clean(text.split("\n"));
    const parts = clean(text.split(","));
    const last = parts.at(-1);
    if (parts.length >= 2 && last && STATE_AND_ZIP.test(last))
      return [...parts.slice(0, -2), `${parts.at(-2)}, ${last}`];
    return parts;
  }
  const entries = Object.entries(address).filter(([, v]) => typeof v === "string" && v.trim());
  const part = (name: RegExp) => entries.find(([k]) => name.test(k))?.[1].trim() ?? "";
  const CITY = /^city$/i;
  const STATE = /^(state|region|province)$/i;
  const ZIP = /^(postal_?code|zip(_?code)?)$/i;
  const COUNTRY = /^country$/i;
  const [city, state, zip, country] = [part(CITY), part(STATE), part(ZIP), part(COUNTRY)];
  const street = entries
    .filter(([k]) => ![CITY, STATE, ZIP, COUNTRY].some((name) => name.test(k)))
    .flatMap(([, v]) => addressLines(v));
  if (!city && !state && !zip) return [...street, ...clean([country])];
  const last = clean([city, clean([state, zip]).join(" ")]).join(", ");
  return [...street, ...clean([last, country])];
}

/** An address block: the name, then the address's lines. */
export function addressBlock(name: string | null | undefined, address: RespondentAddress | string | null | undefined) {
  return [...clean([name ?? ""]), ...addressLines(address)];
}

export type PlacedLine = { text: string; x: number; y: number; size: number };

/** How tall `count` lines of a size are, from the first's top to the last's bottom. */
const blockHeight = (count: number, size: number) => (ASCENT + DESCENT + (count - 1) * LEADING) * size;

/**
 * An address block's lines placed in its window: at the largest of the sizes at which its
 * lines, wrapped to the window's width, fit its height, from the window's top-left corner
 * (inside its inset). At the smallest size the lines that do not fit are left out and the
 * last one shown ends in "…": the preview shows the member what to shorten.
 */
export function placeBlock(
  lines: string[],
  area: Area,
  sizes: readonly number[],
  measure: (text: string, size: number) => number,
): PlacedLine[] {
  const width = area.width - 2 * AREA_INSET;
  const room = area.height - 2 * AREA_INSET;
  let size = sizes.at(-1)!;
  let wrapped: string[] = [];
  for (const candidate of sizes) {
    size = candidate;
    wrapped = lines.flatMap((line) => wrapText(line, width, (t) => measure(t, candidate)));
    if (blockHeight(wrapped.length, size) <= room) break;
  }
  const fits = Math.max(1, Math.floor((room / size - ASCENT - DESCENT) / LEADING) + 1);
  if (wrapped.length > fits) {
    wrapped = wrapped.slice(0, fits);
    let last = wrapped[fits - 1]!;
    while (last && measure(`${last}…`, size) > width) last = last.slice(0, -1);
    wrapped[fits - 1] = `${last.trimEnd()}…`;
  }
  const top = area.y + area.height - AREA_INSET - ASCENT * size;
  return wrapped.map((text, i) => ({ text, x: area.x + AREA_INSET, y: top - i * LEADING * size, size }));
}

/** The box a placed line's letters fill: from its descent below the baseline to its ascent above. */
export function lineBox(line: PlacedLine, measure: (text: string, size: number) => number): Area {
  return {
    x: line.x,
    y: line.y - DESCENT * line.size,
    width: measure(line.text, line.size),
    height: (ASCENT + DESCENT) * line.size,
  };
}

export const within = (inner: Area, outer: Area) =>
  inner.x >= outer.x &&
  inner.y >= outer.y &&
  inner.x + inner.width <= outer.x + outer.width &&
  inner.y + inner.height <= outer.y + outer.height;

const RESPONDENT_PLACEHOLDER = /\{\{\s*respondent\.[a-z]+\s*\}\}/;

/**
 * Whether a template makes letters, one per respondent: it names the respondent a letter goes
 * to, or puts lines in the envelope's window. Any other template makes one document.
 */
export function isLetterTemplate(body: string): boolean {
  return RESPONDENT_PLACEHOLDER.test(body) || /^@to(?:\s|$)/m.test(body);
}

/** A page's number, at the right of its foot: within its letter when a document holds several. */
export function pageLabel(at: { letter: number; letters: number; page: number; pages: number }): string {
  const page = `Page ${at.page} of ${at.pages}`;
  return at.letters > 1 ? `Letter ${at.letter} of ${at.letters} · ${page}` : page;
}
