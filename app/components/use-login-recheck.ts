import { useNavigation, useRevalidator } from "@remix-run/react";
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
 * page's data once no navigation is under way: refreshing restarts a navigation's loads,
 * and the message a form's answer brought goes with the first of them. Returns "rejected"
 * when the server's new state named another member.
 */
export function useLoginRecheck(session: SessionState | null): "ok" | "rejected" {
  const revalidator = useRevalidator();
  const navigating = useNavigation().state !== "idle";
  // "stale": rechecked, the page's data to be refreshed.
  const [outcome, setOutcome] = useState<"ok" | "rejected" | "stale">("ok");
  const dueAt = session ? recheckDueAt(session) : null;

  useEffect(() => {
    if (dueAt === null) return;
    const timer = setTimeout(
      () => {
        recheckOnce().then(
          () => setOutcome("stale"),
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
  }, [dueAt]);

  useEffect(() => {
    if (outcome !== "stale" || navigating) return;
    setOutcome("ok");
    revalidator.revalidate();
    // The revalidator changes identity on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [outcome, navigating]);

  return outcome === "rejected" ? outcome : "ok";
}
