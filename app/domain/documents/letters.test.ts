import { describe, expect, it } from "vitest";
import {
  addressBlock,
  addressLines,
  ADDRESS_SIZES,
  INCH,
  isLetterTemplate,
  LETTER_AREAS,
  LETTER_BODY_TOP,
  lineBox,
  pageLabel,
  placeBlock,
  SHEET,
  within,
} from "./letters";

/** Helvetica-like widths: half the size per character, so tests can count. */
const measure = (text: string, size: number) => text.length * size * 0.5;

describe("address lines", () => {
  it.each([
    [
      "one line with a city, state and ZIP",
      "1 Precinct Way, Springfield, IL 62701",
      ["1 Precinct Way", "Springfield, IL 62701"],
    ],
    ["a ZIP+4", "Suite 5, 1 Main St, Dover, DE 19901-1234", ["Suite 5", "1 Main St", "Dover, DE 19901-1234"]],
    ["one line without a state and ZIP", "100 Example Street, Springfield", ["100 Example Street", "Springfield"]],
    ["lines as typed", "2 Precinct Way\r\n\nSpringfield, IL 62702 ", ["2 Precinct Way", "Springfield, IL 62702"]],
    ["nothing", "", []],
  ])("keeps %s as USPS writes them", (_, address, lines) => {
    expect(addressLines(address)).toEqual(lines);
  });

  it("reads the built-in step's whole line and a hosted form's parts by name", () => {
    expect(addressLines({ Address: "1 Precinct Way, Springfield, IL 62701" })).toEqual([
      "1 Precinct Way",
      "Springfield, IL 62701",
    ]);
    expect(
      addressLines({
        Line1: "9 Court St",
        Line2: "Room 2",
        City: "Salem",
        State: "OR",
        PostalCode: "97301",
        Country: "US",
      }),
    ).toEqual(["9 Court St", "Room 2", "Salem, OR 97301", "US"]);
    expect(addressLines(null)).toEqual([]);
  });

  it("puts the name first in an address block", () => {
    expect(addressBlock("Officer Example", "1 Precinct Way, Springfield, IL 62701")).toEqual([
      "Officer Example",
      "1 Precinct Way",
      "Springfield, IL 62701",
    ]);
    expect(addressBlock("Officer Example", null)).toEqual(["Officer Example"]);
  });
});

describe("where a #10 window envelope shows the letter", () => {
  it("places the window 7/8 inch from the left and 2 inches from the top, 4.5 by 1.125 inches", () => {
    expect(LETTER_AREAS.recipient).toEqual({
      x: 0.875 * INCH,
      y: SHEET.height - 3.125 * INCH,
      width: 4.5 * INCH,
      height: 1.125 * INCH,
    });
  });

  it("keeps the return address above the window and the letter's text below it", () => {
    const { returnAddress, recipient } = LETTER_AREAS;
    expect(returnAddress.y).toBeGreaterThan(recipient.y + recipient.height);
    expect(returnAddress.y + returnAddress.height).toBeLessThanOrEqual(SHEET.height - 0.5 * INCH);
    expect(LETTER_BODY_TOP).toBeLessThan(recipient.y);
  });

  it("fits a name and four address lines in the window at full size, every line inside it", () => {
    const lines = ["Officer Example", "Precinct 9", "1 Precinct Way", "Suite 100", "Springfield, IL 62701"];
    const placed = placeBlock(lines, LETTER_AREAS.recipient, ADDRESS_SIZES.recipient, measure);
    expect(placed.map((l) => l.text)).toEqual(lines);
    expect(new Set(placed.map((l) => l.size))).toEqual(new Set([ADDRESS_SIZES.recipient[0]]));
    for (const line of placed) expect(within(lineBox(line, measure), LETTER_AREAS.recipient)).toBe(true);
    // Top to bottom, starting at the window's left edge.
    expect(placed.map((l) => l.y)).toEqual([...placed.map((l) => l.y)].sort((a, b) => b - a));
    expect(placed[0]!.x).toBeGreaterThan(LETTER_AREAS.recipient.x);
  });

  it("makes the text smaller before it leaves a line out, and marks a block cut short", () => {
    const six = ["A", "B", "C", "D", "E", "F"];
    const smaller = placeBlock(six, LETTER_AREAS.recipient, ADDRESS_SIZES.recipient, measure);
    expect(smaller.map((l) => l.text)).toEqual(six);
    expect(smaller[0]!.size).toBeLessThan(ADDRESS_SIZES.recipient[0]);
    for (const line of smaller) expect(within(lineBox(line, measure), LETTER_AREAS.recipient)).toBe(true);

    const many = Array.from({ length: 12 }, (_, i) => `Line ${i + 1}`);
    const cut = placeBlock(many, LETTER_AREAS.recipient, ADDRESS_SIZES.recipient, measure);
    expect(cut.length).toBeLessThan(many.length);
    expect(cut.at(-1)!.text.endsWith("…")).toBe(true);
    for (const line of cut) expect(within(lineBox(line, measure), LETTER_AREAS.recipient)).toBe(true);
  });

  it("wraps a line wider than the window", () => {
    const long = "Department of Example Affairs, Office of the Regional Example Commissioner";
    const placed = placeBlock([long], LETTER_AREAS.recipient, ADDRESS_SIZES.recipient, measure);
    expect(placed.length).toBeGreaterThan(1);
    expect(placed.map((l) => l.text).join(" ")).toBe(long);
    for (const line of placed) expect(within(lineBox(line, measure), LETTER_AREAS.recipient)).toBe(true);
  });

  it("fits the return address in its own area", () => {
    const placed = placeBlock(
      ["Cara Creator", "100 Sample Street", "Springfield, IL 62701"],
      LETTER_AREAS.returnAddress,
      ADDRESS_SIZES.returnAddress,
      measure,
    );
    expect(placed).toHaveLength(3);
    for (const line of placed) expect(within(lineBox(line, measure), LETTER_AREAS.returnAddress)).toBe(true);
  });
});

describe("letters and their pages", () => {
  it.each([
    ["a respondent placeholder", "To {{respondent.name}}", true],
    ["a window line", "@to Someone", true],
    ["neither", "# {{title}}\nTo:\n{{respondents}}\n@from {{claimant.address}}", false],
  ])("a template with %s makes letters: %s", (_, body, letters) => {
    expect(isLetterTemplate(body)).toBe(letters);
  });

  it("numbers each letter's pages on their own, and names the letter when there are several", () => {
    expect(pageLabel({ letter: 1, letters: 1, page: 2, pages: 3 })).toBe("Page 2 of 3");
    expect(pageLabel({ letter: 2, letters: 3, page: 1, pages: 2 })).toBe("Letter 2 of 3 · Page 1 of 2");
  });
});
