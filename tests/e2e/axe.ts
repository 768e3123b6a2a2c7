import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * The page as axe reads it has no serious or critical violation. axe runs in the page and its
 * same-origin frames (legacy mode: no blank page opened to merge the frames' results, which
 * doubles the time a page takes) and reports the violations' nodes only.
 */
export async function expectAccessible(page: Page, path: string) {
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ["violations"] })
    .analyze();
  const serious = results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(serious, `accessibility of ${path}`).toEqual([]);
}
