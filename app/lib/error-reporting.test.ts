import { afterEach, describe, expect, it, vi } from "vitest";
import { CHUNK_RELOAD_GUARD_MS, describeError, isChunkLoadError, reloadAfterChunkError } from "./error-reporting";

function stubWindow() {
  const storage = new Map<string, string>();
  const reload = vi.fn();
  vi.stubGlobal("window", {
    sessionStorage: {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: (k: string, v: string) => void storage.set(k, v),
    },
    location: { reload },
  });
  return reload;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("chunk load failures (spec §8)", () => {
  it.each([
    "Failed to fetch dynamically imported module: http://x/build/routes/a.js",
    "Loading chunk 12 failed.",
    "Importing a module script failed.",
  ])("recognises %s", (message) => {
    expect(isChunkLoadError(message)).toBe(true);
  });

  it("does not take other errors for one", () => {
    expect(isChunkLoadError("Cannot read properties of undefined")).toBe(false);
  });

  it("'triggers a page reload, at most once per minute'", () => {
    const reload = stubWindow();
    const start = 1_000_000;
    expect(reloadAfterChunkError(start)).toBe(true);
    expect(reloadAfterChunkError(start + CHUNK_RELOAD_GUARD_MS - 1)).toBe(false);
    expect(reloadAfterChunkError(start + CHUNK_RELOAD_GUARD_MS)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});

describe("describeError", () => {
  it("keeps an Error's message and stack, and words anything else", () => {
    const error = new Error("boom");
    expect(describeError(error)).toEqual({ message: "boom", stack: error.stack });
    expect(describeError("text")).toEqual({ message: "text", stack: null });
    expect(describeError({ code: 7 })).toEqual({ message: '{"code":7}', stack: null });
  });
});
