import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";

const CHROMIUM = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The JavaScript a page fetches with no interaction: opened in Chromium, left until the
 * network is idle, every script it asked for gzipped as the server sends them, in kB.
 * Returns, per page, the kB, the number of scripts and those fetched after the load event.
 */
export async function idleJavaScript(base, pages) {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  const result = {};
  try {
    for (const page of pages) {
      const context = await browser.newContext();
      if (page.cookie) {
        const [name, value] = page.cookie.split(/=(.*)/s);
        await context.addCookies([{ name, value, url: base }]);
      }
      const tab = await context.newPage();
      const scripts = new Map();
      let loaded = false;
      tab.on("response", async (response) => {
        if (response.request().resourceType() !== "script") return;
        const url = response.url();
        const afterLoad = loaded;
        try {
          scripts.set(url, { bytes: gzipSync(await response.body()).byteLength, afterLoad });
        } catch {
          scripts.set(url, { bytes: 0, afterLoad });
        }
      });
      tab.on("load", () => (loaded = true));
      await tab.goto(`${base}${page.path}`, { waitUntil: "networkidle" });
      // A chunk asked for by an effect after hydration shows up after the first quiet moment.
      await tab.waitForTimeout(1_000);
      await tab.waitForLoadState("networkidle");
      const bytes = [...scripts.values()].reduce((sum, s) => sum + s.bytes, 0);
      const late = [...scripts.entries()].filter(([, s]) => s.afterLoad).map(([url]) => new URL(url).pathname);
      result[page.name] = { kb: Math.round((bytes / 1024) * 10) / 10, scripts: scripts.size, afterLoad: late };
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return result;
}
