import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentPages, notarizedLetterPages, type LetterPages } from "./notarized-letters";

/** A notice's letters: 1 to 16 respondents, each slot once, in the document's order, 1 to 6 pages each. */
const letters: fc.Arbitrary<LetterPages> = fc.uniqueArray(
  fc.record({ slot: fc.integer({ min: 1, max: 16 }), pages: fc.integer({ min: 1, max: 6 }) }),
  { selector: (letter) => letter.slot, minLength: 1, maxLength: 16 },
);

/** The pages the notary adds after the document: the sandbox one certificate page, another notary none or several. */
const notaryPages = fc.integer({ min: 0, max: 4 });

describe("the letter cut from a notarized notice", () => {
  it.each<[string, LetterPages, number, number, number[] | null]>([
    [
      "the first of three letters, the certificate after",
      [
        { slot: 1, pages: 1 },
        { slot: 2, pages: 2 },
        { slot: 9, pages: 1 },
      ],
      5,
      1,
      [0, 4],
    ],
    [
      "a letter of two pages in the middle",
      [
        { slot: 1, pages: 1 },
        { slot: 2, pages: 2 },
        { slot: 9, pages: 1 },
      ],
      5,
      2,
      [1, 2, 4],
    ],
    [
      "the last letter",
      [
        { slot: 1, pages: 1 },
        { slot: 2, pages: 2 },
        { slot: 9, pages: 1 },
      ],
      5,
      9,
      [3, 4],
    ],
    [
      "with a notary that adds two pages",
      [
        { slot: 1, pages: 2 },
        { slot: 2, pages: 1 },
      ],
      5,
      2,
      [2, 3, 4],
    ],
    [
      "with a notary that adds none",
      [
        { slot: 1, pages: 2 },
        { slot: 2, pages: 1 },
      ],
      3,
      1,
      [0, 1],
    ],
    ["a document that is no letter: whole, to each respondent", [{ slot: null, pages: 3 }], 4, 7, [0, 1, 2, 3]],
    [
      "a respondent the notice has no letter for",
      [
        { slot: 1, pages: 1 },
        { slot: 2, pages: 1 },
      ],
      3,
      3,
      null,
    ],
    [
      "a PDF shorter than its letters (another document)",
      [
        { slot: 1, pages: 2 },
        { slot: 2, pages: 2 },
      ],
      3,
      1,
      null,
    ],
    [
      "a letter of no pages",
      [
        { slot: 1, pages: 0 },
        { slot: 2, pages: 2 },
      ],
      3,
      2,
      null,
    ],
    [
      "a slot twice",
      [
        { slot: 1, pages: 1 },
        { slot: 1, pages: 1 },
      ],
      3,
      1,
      null,
    ],
    [
      "a document both letters and not",
      [
        { slot: null, pages: 1 },
        { slot: 2, pages: 1 },
      ],
      3,
      2,
      null,
    ],
    ["no letters at all", [], 1, 1, null],
  ])("%s", (_, given, notarized, slot, expected) => {
    expect(notarizedLetterPages(given, notarized, slot)).toEqual(expected);
  });

  it("gives each respondent their own letter's pages, then the notary's: the letters together are the document, once each", () => {
    fc.assert(
      fc.property(letters, notaryPages, (given, added) => {
        const total = documentPages(given);
        const notarized = total + added;
        const notary = Array.from({ length: added }, (_, i) => total + i);
        // A plain model: the document's pages, letter after letter.
        const owner = given.flatMap((letter) => Array.from({ length: letter.pages }, () => letter.slot));
        const own: number[] = [];
        for (const letter of given) {
          const cut = notarizedLetterPages(given, notarized, letter.slot!)!;
          expect(cut).toHaveLength(letter.pages + added);
          expect(cut.slice(letter.pages)).toEqual(notary);
          const pages = cut.slice(0, letter.pages);
          expect(pages.map((page) => owner[page])).toEqual(pages.map(() => letter.slot));
          own.push(...pages);
        }
        expect(own).toEqual(Array.from({ length: total }, (_, i) => i));
      }),
    );
  });

  it("cuts nothing from a PDF with fewer pages than the letters had", () => {
    fc.assert(
      fc.property(letters, fc.integer({ min: 1, max: 20 }), (given, missing) => {
        const notarized = Math.max(0, documentPages(given) - missing);
        for (const letter of given) expect(notarizedLetterPages(given, notarized, letter.slot!)).toBeNull();
      }),
    );
  });

  it("cuts nothing for a respondent the notice has no letter for", () => {
    fc.assert(
      fc.property(letters, notaryPages, fc.integer({ min: 1, max: 16 }), (given, added, slot) => {
        fc.pre(!given.some((letter) => letter.slot === slot));
        expect(notarizedLetterPages(given, documentPages(given) + added, slot)).toBeNull();
      }),
    );
  });

  it("mails a document that is no letter whole, the notary's pages included, to any respondent", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        notaryPages,
        fc.integer({ min: 1, max: 16 }),
        (pages, added, slot) => {
          expect(notarizedLetterPages([{ slot: null, pages }], pages + added, slot)).toEqual(
            Array.from({ length: pages + added }, (_, i) => i),
          );
        },
      ),
    );
  });
});
