import { afterEach, describe, expect, it, vi } from "vitest";
import { errorReportsSchema, ERROR_BODY_LIMIT } from "~/services/errors.server";
import {
  CHUNK_RELOAD_GUARD_MS,
  describeError,
  isChunkLoadError,
  MAX_BATCH_BYTES,
  reloadAfterChunkError,
  reportClientError,
  REPORT_DEBOUNCE_MS,
  REPORT_MAX_WAIT_MS,
  takeBatch,
  type ClientErrorReport,
} from "./error-reporting";

const sent = vi.hoisted(() => [] as string[]);
vi.mock("./state-client", () => ({
  storedState: () => null,
  apiFetch: (_path: string, init: { body: string }) => {
    sent.push(init.body);
    return Promise.resolve(new Response(null, { status: 204 }));
  },
}));

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
  vi.useRealTimers();
  sent.length = 0;
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

describe("reporting client errors (spec §8, §9)", () => {
  const report = (stackLength: number): ClientErrorReport => ({
    time: "2026-11-22T10:00:00.000Z",
    href: "https://members.example.org/nol/creator",
    message: "boom",
    stack: "x".repeat(stackLength),
    state: null,
  });

  it("splits a burst of long reports into requests the server accepts, losing none", () => {
    const queue = Array.from({ length: 20 }, () => report(8_000));
    const batches: ClientErrorReport[][] = [];
    while (queue.length > 0) batches.push(takeBatch(queue));
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.flat()).toHaveLength(20);
    for (const batch of batches) {
      const body = JSON.stringify(batch);
      expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(MAX_BATCH_BYTES);
      expect(body.length).toBeLessThan(ERROR_BODY_LIMIT);
      expect(errorReportsSchema.safeParse(batch).success).toBe(true);
    }
  });

  it("sends 250 ms after the last error, and words an empty rejection so the server takes it", async () => {
    vi.useFakeTimers();
    vi.stubGlobal("window", { location: { href: "https://members.example.org/" } });
    reportClientError("");
    await vi.advanceTimersByTimeAsync(REPORT_DEBOUNCE_MS - 1);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    // The API client comes with the first report.
    await vi.dynamicImportSettled();
    expect(sent).toHaveLength(1);
    const batch = JSON.parse(sent[0]!) as ClientErrorReport[];
    expect(batch.map((r) => r.message)).toEqual(["Unknown error"]);
    expect(errorReportsSchema.safeParse(batch).success).toBe(true);
  });

  it("still reports errors that keep coming faster than the debounce", async () => {
    vi.useFakeTimers();
    vi.stubGlobal("window", { location: { href: "https://members.example.org/" } });
    for (let elapsed = 0; elapsed < REPORT_MAX_WAIT_MS; elapsed += 100) {
      reportClientError(new Error(`tick ${elapsed}`));
      await vi.advanceTimersByTimeAsync(100);
    }
    await vi.dynamicImportSettled();
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!)).toHaveLength(REPORT_MAX_WAIT_MS / 100);
  });
});
