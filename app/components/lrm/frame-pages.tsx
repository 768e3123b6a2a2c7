import type { SerializeFrom } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useFrameSession } from "~/components/frame-session";
import { FrameCard, FrameStatus } from "~/components/frame-status";
import { useRequest } from "~/components/use-request";
import { formatLocalTime } from "~/lib/format";
import { membershipIs } from "~/domain/membership-is";
import type { framePageLoader } from "~/services/frame-pages.server";

/** The member of a framed page, signed in through the hand-off, and the members site's address. */
function useFramePage() {
  const { supportEmail, baseUrl } = useLoaderData<SerializeFrom<typeof framePageLoader>>();
  return { ...useFrameSession(supportEmail), baseUrl };
}

/** /lrm: the learning site's entry; it frames this page with a hand-off code. */
export function LrmEntry() {
  const { session, refresh, baseUrl } = useFramePage();
  const check = useRequest(async () => {
    await refresh();
    return { success: "Updated status" };
  });
  return (
    <FrameCard title="Members area" titleId="lrm-title" session={session}>
      {(state) => (
        <>
          <p>
            Signed in as <strong data-testid="frame-username">{state.username}</strong>
            {state.sub_status ? ` · membership ${membershipIs(state.sub_status)}` : null}
          </p>
          <p className="muted">
            Checked {formatLocalTime(state.login_at_checked)}.{" "}
            <button
              type="button"
              className="link-button"
              disabled={check.loading}
              aria-busy={check.loading || undefined}
              onClick={() => void check.run()}
            >
              {check.loading ? "Checking…" : "Check again"}
            </button>
            {check.success ? <span role="status"> {check.success}</span> : null}
            {check.error ? <span role="alert"> {check.error}</span> : null}
          </p>
          <p>
            <a href={`${baseUrl}/`} target="_blank" rel="noreferrer">
              Open the members site in a new tab
            </a>
          </p>
        </>
      )}
    </FrameCard>
  );
}

/** /lrm/iframe: the members' pages the learning site can show in its frame. */
export function LrmFrame() {
  const { session } = useFramePage();
  return (
    <FrameCard title="Your membership" titleId="frame-title" session={session}>
      {(state) => (
        <ul>
          <li>
            Member: <strong>{state.username}</strong>
          </li>
          <li>Membership: {state.sub_status ? membershipIs(state.sub_status) : "none"}</li>
          <li>
            <a href="/embed/nols">Your notices</a>
          </li>
          <li>
            <a href="/embed/subscription">Your subscription</a>
          </li>
        </ul>
      )}
    </FrameCard>
  );
}

/** /lrm/header: a one-line member bar for the learning site's header. */
export function LrmHeader() {
  const { session, baseUrl } = useFramePage();
  return (
    <div className="frame-header" aria-live="polite">
      <FrameStatus session={session}>
        {(state) => (
          <span>
            {state.agent ? `WARNING, representing: ${state.agent} · ` : null}
            <strong>{state.agent ?? state.username}</strong> ·{" "}
            <a href={`${baseUrl}/profile`} target="_blank" rel="noreferrer">
              Profile
            </a>
          </span>
        )}
      </FrameStatus>
    </div>
  );
}
