import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "@playwright/test";
import { logInAs, type RunningServer } from "../helpers/server";

/** Loaded into a server of a test's own: its clock runs CLOCK_OFFSET_MS ahead of the machine's. */
export const SHIFTED_CLOCK = pathToFileURL(path.resolve(import.meta.dirname, "../helpers/shifted-clock.mjs")).href;

/**
 * A page of its own browser context on the server, signed in as the demo member when one is
 * named; with JavaScript unless told otherwise (the plain forms' path).
 */
export async function pageOn(
  browser: Browser,
  server: RunningServer,
  login?: string,
  options: { javaScriptEnabled?: boolean } = {},
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: server.url,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  if (login) {
    const [name, value] = (await logInAs(server.url, login)).split("=") as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
  }
  return context.newPage();
}
