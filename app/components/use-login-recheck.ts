import { useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { recheckDueAt, singleFlight } from "~/domain/freshness";
import type { SessionState } from "~/domain/session-state";
import { StateRejectedError } from "~/lib/state-store";

// One recheck at a time for the whole page, however many callers ask (spec §4). The API
// client loads with the first recheck: no page needs it to render.
const recheckOnce = singleFlight(async () => {
  const { api } = await import("~/lib/api-client");
  const { error } = await api("/api/login/recheck");
  return error === null;
});

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Re-reads the member when the login freshness of spec §4 says so, then refreshes the
 * page's data. Returns "rejected" when the server's new state named another member.
 */
export function useLoginRecheck(session: SessionState | null): "ok" | "rejected" {
  const revalidator = useRevalidator();
  const [outcome, setOutcome] = useState<"ok" | "rejected">("ok");
  const dueAt = session ? recheckDueAt(session) : null;

  useEffect(() => {
    if (dueAt === null) return;
    const timer = setTimeout(
      () => {
        recheckOnce().then(
          () => revalidator.revalidate(),
          (error) => {
            if (error instanceof StateRejectedError) {
              void import("~/lib/error-reporting").then(({ reportClientError }) => reportClientError(error));
              setOutcome("rejected");
            }
          },
        );
      },
      Math.min(Math.max(0, dueAt - Date.now()), MAX_TIMER_MS),
    );
    return () => clearTimeout(timer);
    // The revalidator changes identity on every render; the due time alone decides.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dueAt]);

  return outcome;
}
