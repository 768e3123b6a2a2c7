import { useCallback, useEffect, useState } from "react";
import { usernameChangeMessage, type SessionState } from "~/domain/session-state";
import { reportClientError } from "~/lib/error-reporting";
import { apiFetch, deviceKey, forgetState, inFrame, storedState, StateRejectedError } from "~/lib/state-client";

/** The words for a failed sign-in; a state naming another member is reported, as its message says. */
export function failureMessage(error: unknown, supportEmail: string, otherwise: string): string {
  if (!(error instanceof StateRejectedError)) return otherwise;
  reportClientError(error);
  return usernameChangeMessage(supportEmail);
}

export type FrameSession =
  | { status: "working" }
  | { status: "signed-in"; state: SessionState }
  | { status: "signed-out"; reason: string }
  | { status: "error"; message: string };

/**
 * Inside the learning site's frame there are no cookies: the member arrives with a
 * hand-off code (auth_code and hash, spec §7) or with a state kept from an earlier one.
 */
export function useFrameSession(supportEmail: string): { session: FrameSession; refresh: () => Promise<void> } {
  const [session, setSession] = useState<FrameSession>({ status: "working" });

  /** Re-reads the member through the API, signed with the kept state. */
  const refresh = useCallback(async () => {
    try {
      const response = await apiFetch("/api/login/recheck");
      const body = (await response.json()) as { state?: SessionState; error?: string };
      setSession(
        response.ok && body.state
          ? { status: "signed-in", state: body.state }
          : { status: "signed-out", reason: body.error ?? "You are not signed in." },
      );
    } catch (error) {
      setSession({
        status: "error",
        message: failureMessage(error, supportEmail, "The members site did not answer. Try again."),
      });
    }
  }, [supportEmail]);

  useEffect(() => {
    let cancelled = false;
    const done = (next: FrameSession) => {
      if (!cancelled) setSession(next);
    };
    (async () => {
      const query = new URLSearchParams(window.location.search);
      const code = query.get("auth_code");
      const hash = query.get("hash");
      let response: Response | null = null;
      // The hand-off is sent only inside a frame, and only with both values (spec §7).
      if (inFrame() && code && hash) {
        // A hand-off is a new sign-in, perhaps of another member: the kept state is not theirs.
        forgetState();
        const key = await deviceKey();
        const params = new URLSearchParams({ auth_code: code, hash });
        response = await apiFetch(`/api/login/lrm-auth?${params}`, { headers: { "device-key": key.publicKey } });
      } else if (storedState()) {
        response = await apiFetch("/api/login/recheck");
      }
      if (!response) return done({ status: "signed-out", reason: "Open this page from the learning site to sign in." });
      const body = (await response.json()) as { state?: SessionState; error?: string };
      if (!response.ok || !body.state)
        return done({ status: "signed-out", reason: body.error ?? "You are not signed in." });
      done({ status: "signed-in", state: body.state });
    })().catch((error) => {
      done({
        status: "error",
        message: failureMessage(
          error,
          supportEmail,
          "The sign-in could not be completed. Reload the page to try again.",
        ),
      });
    });
    return () => {
      cancelled = true;
    };
  }, [supportEmail]);
  return { session, refresh };
}
