import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { firstLoadByRoute, firstLoadFiles } from "../../bench/first-load.mjs";

/**
 * The JavaScript a page loads before it can be used, read off the production build: the
 * entry, the root and the page's route chain with every module they import, gzipped.
 */
const ROOT = path.resolve(__dirname, "../..");
const LIMIT_KB = 100;

type Assets = {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { module: string; imports?: string[]; parentId?: string }>;
};
/** The production build's assets manifest. */
const assets = async () => (await import(/* @vite-ignore */ path.join(ROOT, "build", "index.js"))).assets as Assets;
/** A script of the build, by its URL. */
const read = (url: string) => readFileSync(path.join(ROOT, "public", url.replace(/^\//, "")), "utf8");
/** Every script of the build, first-load or not. */
const allScripts = () =>
  readdirSync(path.join(ROOT, "public", "build"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".js"))
    .map((f) => `/build/${f}`);

describe("first-load JavaScript", () => {
  it("stays within 100 kB gzip on every page, sign-in and sign-up included", async () => {
    const pages = (await firstLoadByRoute(ROOT)) as Record<string, { kb: number; scripts: number }>;
    expect(Object.keys(pages).length).toBeGreaterThan(40);
    expect(pages["routes/login._index"]).toBeDefined();
    expect(Object.keys(pages).some((id) => id.startsWith("routes/signup"))).toBe(true);
    const over = Object.entries(pages).filter(([, js]) => js.kb > LIMIT_KB);
    expect(over).toEqual([]);
  });

  it("carries neither single fetch's decoder, which is off, nor a module only a loader reads (decision 066)", async () => {
    const { entry, routes } = await assets();
    const scripts = allScripts();
    // Single fetch's decoding of a turbo-stream, and turbo-stream itself.
    expect(
      scripts.filter((url) => /No response body to decode|Cannot encode object with prototype/.test(read(url))),
    ).toEqual([]);
    // The root's loader checks redirect targets (safeRedirectPath); the visitor's home page does not.
    const home = [...firstLoadFiles(entry, routes, routes["routes/_index"]!)];
    const redirectCheck = scripts.filter((url) => read(url).includes('startsWith("/\\\\")'));
    expect(redirectCheck.length).toBeGreaterThan(0);
    expect(home.filter((url) => redirectCheck.includes(url))).toEqual([]);
  });

  it("loads the schema library and conform on no page at first, only after the page is up", async () => {
    const { entry, routes } = await assets();
    const isZod = (url: string) => read(url).includes("ZodError");
    const firstLoad = new Set<string>();
    for (const route of Object.values(routes)) for (const f of firstLoadFiles(entry, routes, route)) firstLoad.add(f);
    expect([...firstLoad].filter(isZod)).toEqual([]);
    // Nor conform's browser side: the forms' state is the app's own (decision 065); conform's
    // reader of form data comes with the schema, after the page.
    const isConform = (url: string) => read(url).includes("__intent__");
    expect([...firstLoad].filter(isConform)).toEqual([]);
    expect(allScripts().filter(isZod).length).toBeGreaterThan(0);
  });
});
