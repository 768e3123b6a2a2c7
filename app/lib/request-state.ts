/**
 * The request loading pattern (spec §4): each request has loading, initialLoad, error, warn
 * and success. It starts loading on a run and finishes with the server's values.
 */
export type RequestState = {
  loading: boolean;
  initialLoad: boolean;
  error: string | null;
  warn: string | null;
  success: string | null;
};

export const initialRequestState: RequestState = {
  loading: false,
  initialLoad: true,
  error: null,
  warn: null,
  success: null,
};

export type ServerOutcome = { error?: string | null; warn?: string | null; success?: string | null };

/** spec §9 "Minimum fetch delay: 200 ms": a request never looks shorter, so nothing flickers. */
export const MIN_FETCH_DELAY_MS = 200;

export function startRequest(state: RequestState): RequestState {
  return { ...state, loading: true, error: null, warn: null, success: null };
}

export function finishRequest(_state: RequestState, outcome: ServerOutcome): RequestState {
  return {
    loading: false,
    initialLoad: false,
    error: outcome.error ?? null,
    warn: outcome.warn ?? null,
    success: outcome.success ?? null,
  };
}

/**
 * Runs `run`, taking at least `minMs`; a thrown error becomes the outcome's error and is
 * logged (spec §8: "A failed data call sets the error message on its loading state and logs it").
 */
export async function runRequest<T extends ServerOutcome>(
  run: () => Promise<T>,
  minMs = MIN_FETCH_DELAY_MS,
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
  log: (error: unknown) => void = (error) => console.warn("A data call failed:", error),
): Promise<T | ServerOutcome> {
  const [outcome] = await Promise.all([
    run().catch((error: unknown): ServerOutcome => {
      log(error);
      return { error: error instanceof Error ? error.message : "The request failed" };
    }),
    sleep(minMs),
  ]);
  return outcome;
}
