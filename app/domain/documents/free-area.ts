/** Where something drawn on a page (a stamp) fits without covering the page's text. */

/** A rectangle in PDF points, from its lower-left corner. */
export type Box = { x: number; y: number; width: number; height: number };

export function boxesMeet(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * The lowest free square of the side `size` on the page, the rightmost of its row: inside
 * `margin` of the page's edges and `gap` away from every box. Null when there is none.
 */
export function freeSquare(
  boxes: Box[],
  page: { width: number; height: number },
  size: number,
  { margin, gap, step = 4 }: { margin: number; gap: number; step?: number },
): Box | null {
  const padded = boxes.map((b) => ({
    x: b.x - gap,
    y: b.y - gap,
    width: b.width + 2 * gap,
    height: b.height + 2 * gap,
  }));
  for (let y = margin; y + size <= page.height - margin; y += step) {
    for (let x = page.width - margin - size; x >= margin; x -= step) {
      const square = { x, y, width: size, height: size };
      if (!padded.some((b) => boxesMeet(square, b))) return square;
    }
  }
  return null;
}
