/** How far a list counts its rows; past it, the database's estimate stands in ("about 45,000"). */
export const COUNT_CAP = 1_000;

/** A list's count: exact up to the cap; past it an estimate (a whole table's) or only "more than the cap". */
export type ListCount = { n: number; capped: boolean };

/**
 * A count in words: "1,234" as counted; past the cap an estimate to two significant figures
 * ("about 45,000", not 44,873), or, where only the cap is known, "more than 1,000".
 */
export function countWords(count: ListCount, cap = COUNT_CAP): string {
  if (!count.capped) return count.n.toLocaleString("en-US");
  if (count.n <= cap + 1) return `more than ${cap.toLocaleString("en-US")}`;
  const step = 10 ** Math.max(0, Math.floor(Math.log10(count.n)) - 1);
  return `about ${(Math.round(count.n / step) * step).toLocaleString("en-US")}`;
}

/** "1 member matches", "12 members match", "About 45,000 members match", "More than 1,000 members match". */
export function matchLine(count: ListCount, one: string, many: string): string {
  const words = countWords(count);
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} ${count.n === 1 && !count.capped ? `${one} matches` : `${many} match`}`;
}
