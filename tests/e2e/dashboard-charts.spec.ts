import { expect, test } from "./fixtures";

test("the dashboard's sign-up and revenue charts have a value axis, the weeks' dates and a table of the numbers", async ({
  page,
  signIn,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn("admin");
  await page.goto("/admin");
  const signups = page.getByRole("figure", { name: "Sign-ups" });
  const revenue = page.getByRole("figure", { name: "Revenue" });

  for (const [chart, money] of [
    [signups, false],
    [revenue, true],
  ] as const) {
    // The value axis: round numbers from zero, in dollars for the revenue.
    const values = await chart.locator("svg .chart-y text").allTextContents();
    expect(values.length).toBeGreaterThanOrEqual(2);
    expect(values[0]).toBe(money ? "$0" : "0");
    for (const v of values) expect(v).toMatch(money ? /^\$[\d,]+$/ : /^[\d,]+$/);

    // The dates axis starts at the first week of the table behind the chart.
    await chart.getByText(/by week$/).click();
    const firstWeek = (await chart.getByRole("row").nth(1).getByRole("cell").first().textContent())!;
    expect(firstWeek).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    const dates = await chart.locator("svg .chart-x text").allTextContents();
    expect(dates[0]).toBe(firstWeek.replace(/, \d{4}$/, ""));
    expect(dates.length).toBeGreaterThanOrEqual(3);
  }

  // Side by side, the two cards are as wide as each other.
  const [a, b] = [(await signups.boundingBox())!, (await revenue.boundingBox())!];
  expect(Math.abs(a.width - b.width)).toBeLessThanOrEqual(1);
  expect(Math.abs(a.y - b.y)).toBeLessThanOrEqual(1);
});
