/** Login freshness (spec §4): when the server must re-read the member and the subscription. */

export const RECHECK_MARGIN_MS = 30_000;

export type FreshnessState = {
  login_at_checked: string;
  login_recheck: number;
  sub_checked: string | null;
  sub_recheck: number;
};

/**
 * "A recheck is due when the login check time plus login_recheck (or the sub check time plus
 * sub_recheck, whichever is sooner), minus a 30 second margin, has passed."
 */
export function recheckDueAt(state: FreshnessState): number {
  const login = Date.parse(state.login_at_checked) + state.login_recheck * 1_000;
  const sub = state.sub_checked ? Date.parse(state.sub_checked) + state.sub_recheck * 1_000 : Number.POSITIVE_INFINITY;
  return Math.min(login, sub) - RECHECK_MARGIN_MS;
}

export function isRecheckDue(state: FreshnessState, now: number): boolean {
  return now >= recheckDueAt(state);
}

/** "Only one recheck runs at a time": concurrent callers share the one in flight. */
export function singleFlight<T>(run: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => {
    inFlight ??= run().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
}
