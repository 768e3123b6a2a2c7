import type { Step } from "~/domain/nol/steps";
import type { RoundRecord } from "~/domain/nol/timeline";

/** The records of a version's rounds, as the timeline's and the reminders' tests write them. */

export const prepared = (round: number): RoundRecord => ({
  round,
  mailedOn: null,
  delivered: false,
  deliveredOn: null,
  tracking: [],
});

export const mailed = (round: number, on: string, tracking = ["9400100000000000000000"]): RoundRecord => ({
  ...prepared(round),
  mailedOn: on,
  tracking,
});

export const delivered = (round: number, mailedOn: string, deliveredOn: string | null): RoundRecord => ({
  ...mailed(round, mailedOn),
  delivered: true,
  deliveredOn,
});

export const step = (kind: Step["kind"], round: number | null) => ({ kind, round });

/** Three notices delivered Jan 10, Feb 5 and Feb 24, 2026. */
export const threeRounds = [
  delivered(1, "2026-01-06", "2026-01-10"),
  delivered(2, "2026-02-02", "2026-02-05"),
  delivered(3, "2026-02-21", "2026-02-24"),
];
