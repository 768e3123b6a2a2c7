/**
 * The value axis of a bar chart: ticks from 0 with a round step (1, 2 or 5 times a power of
 * ten, never below `minStep`), the top one at or above the largest value, about `count` steps.
 */
export function axisTicks(
  max: number,
  { count = 4, minStep = 1 }: { count?: number; minStep?: number } = {},
): number[] {
  if (!(max > 0)) return [0, minStep];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(minStep, [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power);
  const steps = Math.ceil(max / step);
  return Array.from({ length: steps + 1 }, (_, i) => i * step);
}

/** Which of `n` bars get a date under them: about `labels` of them, evenly, the first always. */
export function labelledBars(n: number, labels = 4): number[] {
  const every = Math.max(1, Math.ceil(n / labels));
  return Array.from({ length: n }, (_, i) => i).filter((i) => i % every === 0);
}
