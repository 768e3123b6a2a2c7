import { useCallback, useRef, useState } from "react";
import {
  finishRequest,
  initialRequestState,
  runRequest,
  startRequest,
  type RequestState,
  type ServerOutcome,
} from "~/lib/request-state";

/** One request's loading state (spec §4), for calls made from the browser. */
export function useRequest<T extends ServerOutcome>(
  run: () => Promise<T>,
): RequestState & { run: () => Promise<void> } {
  const [state, setState] = useState<RequestState>(initialRequestState);
  const latest = useRef(run);
  latest.current = run;
  const start = useCallback(async () => {
    setState(startRequest);
    const outcome = await runRequest(() => latest.current());
    setState((s) => finishRequest(s, outcome));
  }, []);
  return { ...state, run: start };
}
