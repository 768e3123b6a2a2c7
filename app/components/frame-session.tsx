import { useCallback, useEffect, useState } from "react";
import { usernameChangeMessage, type SessionState } from "~/domain/session-state";
import { reportClientError } from "~/lib/error-reporting";
import { api, type ApiResult } from "~/lib/api-client";
import { deviceKey, forgetState, inFrame, storedState, StateRejectedError } from "~/lib/state-client";

/** The words for a failed sign-in; a state naming another member is reported, as its message says. */
export function failureMessage(error: unknown, supportEmail: string, otherwise: string): string {
  if (!(error instanceof StateRejectedError)) return otherwise;
  reportClientError(error);
  return usernameChangeMessage(supportEmail);
}

type StateAnswer = { state?: SessionState };

/** A sign-in answer as the frame's session: signed in with a state, else signed out with the reason. */
function sessionOf({ data, error }: ApiResult<StateAnswer>): FrameSession {
  return data?.state && !error
    ? { status: "signed-in", state: data.state }
    : { status: "signed-out", reason: error ?? "You are not signed in." };
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
      setSession(sessionOf(await api<StateAnswer>("/api/login/recheck")));
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
      let answer: ApiResult<StateAnswer> | null = null;
      // The hand-off is sent only inside a frame, and only with both values (spec §7).
      if (inFrame() && code && hash) {
        // A hand-off is a new sign-in, perhaps of another member: the kept state is not theirs.
        forgetState();
        const key = await deviceKey();
        answer = await api<StateAnswer>("/api/login/lrm-auth", {
          query: { auth_code: code, hash },
          headers: { "device-key": key.publicKey },
        });
      } else if (storedState()) {
        answer = await api<StateAnswer>("/api/login/recheck");
      }
      if (!answer) return done({ status: "signed-out", reason: "Open this page from the learning site to sign in." });
      done(sessionOf(answer));
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
