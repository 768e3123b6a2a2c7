import { describe, expect, it } from "vitest";
import { boxesMeet, freeSquare, type Box } from "./free-area";

const page = { width: 200, height: 200 };
const options = { margin: 10, gap: 2, step: 1 };

describe("freeSquare", () => {
  it.each<[string, Box[], number, Box | null]>([
    ["an empty page: the lower right corner", [], 50, { x: 140, y: 10, width: 50, height: 50 }],
    [
      "a footer across the foot: above it",
      [{ x: 0, y: 0, width: 200, height: 40 }],
      50,
      { x: 140, y: 42, width: 50, height: 50 },
    ],
    [
      "a box in the lower right: left of it",
      [{ x: 120, y: 0, width: 80, height: 80 }],
      50,
      { x: 68, y: 10, width: 50, height: 50 },
    ],
    ["a page full of text: none", [{ x: 0, y: 0, width: 200, height: 200 }], 20, null],
    ["a square larger than the page within its margins: none", [], 190, null],
  ])("%s", (_, boxes, size, expected) => {
    const found = freeSquare(boxes, page, size, options);
    expect(found).toEqual(expected);
    if (found) for (const box of boxes) expect(boxesMeet(found, box)).toBe(false);
  });

  it.each<[Box, Box, boolean]>([
    [{ x: 0, y: 0, width: 10, height: 10 }, { x: 5, y: 5, width: 10, height: 10 }, true],
    [{ x: 0, y: 0, width: 10, height: 10 }, { x: 10, y: 0, width: 10, height: 10 }, false],
    [{ x: 0, y: 0, width: 10, height: 10 }, { x: 0, y: 11, width: 10, height: 10 }, false],
  ])("boxesMeet(%o, %o) is %s", (a, b, expected) => {
    expect(boxesMeet(a, b)).toBe(expected);
    expect(boxesMeet(b, a)).toBe(expected);
  });
});
