import { describe, expect, it, vi } from "vitest";
import { awaitSubmittedEntry, POLL_LIMIT, TEST_MODE_FALLBACK_MS, type PendingBody } from "./submitted-entry";

const body: PendingBody = {
  username: "creator",
  cause: "TS",
  descriptive_version: "v1",
  prior_rows: 2,
  entry_id: null,
  prior_updated: null,
};

describe("after a hosted form is sent (spec §4 'Submission')", () => {
  it("'a pending record is added and a submitted call is made', then it waits for the new entry", async () => {
    const postSubmitted = vi.fn(async () => {});
    const readEntries = vi
      .fn()
      .mockResolvedValueOnce({ rows: 2, updated: null })
      .mockResolvedValueOnce({ rows: 3, updated: "2026-01-01T00:00:00Z" });
    const outcome = await awaitSubmittedEntry(body, {
      postSubmitted,
      readEntries,
      sleep: async () => {},
      testMode: false,
    });
    expect(postSubmitted).toHaveBeenCalledWith(body);
    expect(readEntries).toHaveBeenCalledTimes(2);
    expect(outcome).toBe("arrived");
  });

  it("waits for an edited entry's update time to change", async () => {
    const edited = { ...body, entry_id: "187-1", prior_updated: "2026-01-01T00:00:00Z" };
    const readEntries = vi
      .fn()
      .mockResolvedValueOnce({ rows: 2, updated: "2026-01-01T00:00:00Z" })
      .mockResolvedValueOnce({ rows: 2, updated: "2026-01-02T00:00:00Z" });
    expect(
      await awaitSubmittedEntry(edited, {
        postSubmitted: async () => {},
        readEntries,
        sleep: async () => {},
        testMode: false,
      }),
    ).toBe("arrived");
  });

  it("'In test mode, loading just clears after 1 second'", async () => {
    const sleep = vi.fn(async () => {});
    const readEntries = vi.fn();
    expect(await awaitSubmittedEntry(body, { postSubmitted: async () => {}, readEntries, sleep, testMode: true })).toBe(
      "test-mode",
    );
    expect(sleep).toHaveBeenCalledWith(TEST_MODE_FALLBACK_MS);
    expect(readEntries).not.toHaveBeenCalled();
  });

  it("gives up after its polls when nothing arrives", async () => {
    const readEntries = vi.fn(async () => ({ rows: 2, updated: null }));
    expect(
      await awaitSubmittedEntry(body, {
        postSubmitted: async () => {},
        readEntries,
        sleep: async () => {},
        testMode: false,
      }),
    ).toBe("timed-out");
    expect(readEntries).toHaveBeenCalledTimes(POLL_LIMIT);
  });
});
