import { describe, expect, it } from "vitest";
import { axisTicks, labelledBars } from "./chart-axis";

describe("the ticks of a chart's value axis", () => {
  it.each([
    [0, {}, [0, 1]],
    [1, {}, [0, 1]],
    [3, {}, [0, 1, 2, 3]],
    [7, {}, [0, 2, 4, 6, 8]],
    [10, {}, [0, 5, 10]],
    [95, {}, [0, 50, 100]],
    [120, {}, [0, 50, 100, 150]],
    // Money in cents: whole dollars at least.
    [0, { minStep: 100 }, [0, 100]],
    [150, { minStep: 100 }, [0, 100, 200]],
    [12_345, { minStep: 100 }, [0, 5_000, 10_000, 15_000]],
  ])("for a largest value of %d (%o) are %o", (max, options, ticks) => {
    expect(axisTicks(max, options)).toEqual(ticks);
  });

  it("always reach the largest value", () => {
    for (const max of [1, 9, 11, 99, 101, 999, 4_321, 87_654]) {
      const ticks = axisTicks(max);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(max);
      expect(ticks.length).toBeLessThanOrEqual(6);
    }
  });
});

describe("the bars that get a date", () => {
  it.each([
    [12, 4, [0, 3, 6, 9]],
    [12, 6, [0, 2, 4, 6, 8, 10]],
    [3, 4, [0, 1, 2]],
    [0, 4, []],
  ])("of %d bars, about %d", (n, labels, bars) => {
    expect(labelledBars(n, labels)).toEqual(bars);
  });
});
