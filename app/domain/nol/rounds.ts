/** Round naming (spec §4 "Round naming", §9 "The naming threshold is 3"). */

export const NOTICE_ROUNDS = 3;
export const SETUP_BILLING = "Setup Billing";

const ORDINALS = [
  "First",
  "Second",
  "Third",
  "Fourth",
  "Fifth",
  "Sixth",
  "Seventh",
  "Eighth",
  "Ninth",
  "Tenth",
  "Eleventh",
  "Twelfth",
  "Thirteenth",
  "Fourteenth",
  "Fifteenth",
  "Sixteenth",
  "Seventeenth",
  "Eighteenth",
  "Nineteenth",
  "Twentieth",
];

/** "First" … "Twentieth", then "21st", "22nd", "23rd", "24th" … */
export function ordinalWord(n: number): string {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`No ordinal for ${n}`);
  const word = ORDINALS[n - 1];
  if (word) return word;
  const lastTwo = n % 100;
  const suffix =
    lastTwo >= 11 && lastTwo <= 13 ? "th" : (({ 1: "st", 2: "nd", 3: "rd" } as Record<number, string>)[n % 10] ?? "th");
  return `${n}${suffix}`;
}

/** The true bill number of a round: round 4 is the first true bill. */
export function trueBillNumber(round: number): number {
  return round - NOTICE_ROUNDS;
}

export function trueBillName(n: number): string {
  return `${ordinalWord(n)} True Bill`;
}

export type RoundLabel = { label: string; warning?: undefined } | { label: null; warning: string };

/**
 * "Rounds 1 to 3 show as 'Round N'. Above 3, shown as the ordinal word of (round minus 3)
 * followed by 'True Bill'. 'Setup Billing' is also a label; other values trigger a warning."
 */
export function roundLabel(round: unknown): RoundLabel {
  if (round === SETUP_BILLING) return { label: SETUP_BILLING };
  if (typeof round === "number" && Number.isInteger(round) && round >= 1) {
    return round <= NOTICE_ROUNDS ? { label: `Round ${round}` } : { label: trueBillName(trueBillNumber(round)) };
  }
  return { label: null, warning: `Unknown round: ${JSON.stringify(round)}` };
}

/** "'Rounds 1 to N' is shown for rounds beyond the first." */
export function roundsDoneLabel(n: number): string {
  return n > 1 ? `Rounds 1 to ${n}` : "Round 1";
}
