import type { Locator, Page } from "@playwright/test";
import { expect } from "./fixtures";

/**
 * What the page cuts off at the side: each control (link, button, field, summary) that shows
 * partly or wholly outside the screen's width or a box that clips it, each select whose chosen
 * option is wider than its box, and each table wider than the box it scrolls in when that box
 * draws no cue that it scrolls (its scroll shadow).
 *
 * On a phone (under 576 pixels) no control may be cut at all: a row's actions show within the
 * screen. Wider, a control may lie beyond the edge of a box that shows it scrolls.
 *
 * A control moved wholly to the left of the page (a skip link waiting for the focus) is hidden on
 * purpose: nothing can scroll to it. A one-pixel, clipped control (visually hidden) is skipped too.
 */
export function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const name = (el: Element) => {
      const label = (el as HTMLInputElement).labels?.[0]?.innerText;
      const text = (el.getAttribute("aria-label") ?? label ?? (el as HTMLElement).innerText ?? "")
        .trim()
        .replace(/\s+/g, " ");
      const field = el.getAttribute("name") ?? el.id;
      return `<${el.tagName.toLowerCase()}> ${JSON.stringify(text.slice(0, 60) || field)}`;
    };
    const phone = document.documentElement.clientWidth < 576;
    /** The box draws its scroll shadow: a cover that moves with the content over a shadow that stays. */
    const cued = (style: CSSStyleDeclaration) =>
      /gradient/.test(style.backgroundImage) && /local/.test(style.backgroundAttachment);
    /**
     * The horizontal span of the screen left visible by the element's clipping ancestors, and
     * whether a box that clips it shows that it scrolls.
     */
    const visibleSpan = (el: Element) => {
      let left = 0;
      let right = document.documentElement.clientWidth;
      let cue = false;
      for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
        const style = getComputedStyle(box);
        if (style.overflowX === "visible") continue;
        cue ||= cued(style);
        const rect = box.getBoundingClientRect();
        left = Math.max(left, rect.left + box.clientLeft);
        right = Math.min(right, rect.left + box.clientLeft + box.clientWidth);
      }
      return { left, right, cue };
    };
    const problems: string[] = [];
    const controls = document.querySelectorAll(
      "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex='-1'])",
    );
    for (const control of controls) {
      if (!control.checkVisibility({ visibilityProperty: true })) continue;
      const rect = control.getBoundingClientRect();
      if (rect.width <= 1 || rect.height <= 1 || rect.right <= 0) continue;
      const span = visibleSpan(control);
      if ((rect.left < span.left - 1 || rect.right > span.right + 1) && (phone || !span.cue)) {
        problems.push(
          `${name(control)} spans ${Math.round(rect.left)}–${Math.round(rect.right)} px, shown ${Math.round(span.left)}–${Math.round(span.right)}`,
        );
      }
    }
    // A closed select shows its chosen option on one line: words wider than the box are cut.
    const measure = document.createElement("canvas").getContext("2d")!;
    for (const select of document.querySelectorAll("select")) {
      if (!select.checkVisibility() || select.multiple || select.size > 1) continue;
      const style = getComputedStyle(select);
      measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = select.selectedOptions[0]?.text ?? "";
      // The box less its padding and the arrow's room (a line's height).
      const room =
        select.clientWidth -
        parseFloat(style.paddingLeft) -
        parseFloat(style.paddingRight) -
        parseFloat(style.fontSize);
      if (measure.measureText(text).width > room) {
        problems.push(`${name(select)} cuts its choice ${JSON.stringify(text)} at ${Math.round(room)} px`);
      }
    }
    for (const table of document.querySelectorAll("table")) {
      if (!table.checkVisibility()) continue;
      const rect = table.getBoundingClientRect();
      // The nearest box that clips the table: cut, it must show that it scrolls.
      for (let box = table.parentElement; box && box !== document.body; box = box.parentElement) {
        const style = getComputedStyle(box);
        if (style.overflowX === "visible") continue;
        const cut = box.scrollWidth > box.clientWidth + 1 || rect.right > box.getBoundingClientRect().right + 1;
        if (cut && !cued(style)) {
          const label = table.getAttribute("aria-label") ?? table.caption?.innerText ?? box.getAttribute("aria-label");
          problems.push(`table ${JSON.stringify(label ?? "")} is cut at ${Math.round(box.clientWidth)} px with no cue`);
        }
        break;
      }
    }
    return problems;
  });
}

/** Nothing on the page is cut off at the side (see `cutOff`). */
export async function expectNothingCutOff(page: Page, what: string) {
  expect(await cutOff(page), `what ${what} cuts off at the side`).toEqual([]);
}

/** Each plan of the group reads the group's width: what it is about under its name, not beside it. */
export async function expectPlansFullWidth(plans: Locator) {
  const width = (await plans.boundingBox())!.width;
  const choices = plans.locator(".choice");
  expect(await choices.count()).toBeGreaterThan(1);
  for (const choice of await choices.all()) {
    const label = (await choice.locator("label").boundingBox())!;
    const about = (await choice.locator(".field-hint").boundingBox())!;
    expect(Math.abs(about.x - label.x)).toBeLessThanOrEqual(1);
    expect(about.y).toBeGreaterThanOrEqual(label.y + label.height - 1);
    expect(about.width).toBeGreaterThan(width * 0.6);
  }
}
