/**
 * After a hosted form is sent (spec §4 "Submission"): add a pending record through the
 * submitted endpoint, then wait for the entry to arrive. In test mode the loading just
 * clears after 1 second.
 */
export const TEST_MODE_FALLBACK_MS = 1_000;
export const POLL_INTERVAL_MS = 2_000;
export const POLL_LIMIT = 30;

export type PendingBody = {
  username: string;
  cause: string;
  descriptive_version: string;
  prior_rows: number;
  entry_id: string | null;
  prior_updated: string | null;
};

export type SubmittedDeps = {
  postSubmitted: (body: PendingBody) => Promise<void>;
  /** The member's entries of the cause now: how many, and when the watched one was updated. */
  readEntries: () => Promise<{ rows: number; updated: string | null }>;
  sleep: (ms: number) => Promise<void>;
  testMode: boolean;
};

export type SubmittedOutcome = "arrived" | "test-mode" | "timed-out";

export async function awaitSubmittedEntry(body: PendingBody, deps: SubmittedDeps): Promise<SubmittedOutcome> {
  await deps.postSubmitted(body);
  if (deps.testMode) {
    await deps.sleep(TEST_MODE_FALLBACK_MS);
    return "test-mode";
  }
  for (let i = 0; i < POLL_LIMIT; i += 1) {
    await deps.sleep(POLL_INTERVAL_MS);
    const now = await deps.readEntries();
    const changed = body.entry_id
      ? now.updated !== null && now.updated !== body.prior_updated
      : now.rows > body.prior_rows;
    if (changed) return "arrived";
  }
  return "timed-out";
}
