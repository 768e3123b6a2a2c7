import { describe, expect, it, vi } from "vitest";
import { finishRequest, initialRequestState, runRequest, startRequest } from "./request-state";

describe("request loading pattern (spec §4)", () => {
  it("'starts loading on a run and finishes with the server's error, warn and success values'", () => {
    const running = startRequest({ ...initialRequestState, error: "old" });
    expect(running).toEqual({ loading: true, initialLoad: true, error: null, warn: null, success: null });
    const done = finishRequest(running, { warn: "Careful", success: "Updated status" });
    expect(done).toEqual({
      loading: false,
      initialLoad: false,
      error: null,
      warn: "Careful",
      success: "Updated status",
    });
  });

  it("takes at least the minimum fetch delay of 200 ms", async () => {
    vi.useFakeTimers();
    try {
      let finished = false;
      const pending = runRequest(async () => ({ success: "ok" })).then((outcome) => {
        finished = true;
        return outcome;
      });
      await vi.advanceTimersByTimeAsync(199);
      expect(finished).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toEqual({ success: "ok" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("turns a failed request into an error outcome and logs it", async () => {
    const logged: unknown[] = [];
    const failure = new Error("The server did not answer");
    const outcome = await runRequest(
      async () => {
        throw failure;
      },
      0,
      undefined,
      (error) => logged.push(error),
    );
    expect(outcome).toEqual({ error: "The server did not answer" });
    expect(logged).toEqual([failure]);
  });
});
