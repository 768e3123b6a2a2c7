import type { ReactNode } from "react";
import { Alert } from "./ui/alert";
import type { FrameSession } from "./frame-session";

/** What a framed page shows while the hand-off runs, and when it cannot sign in. */
export function FrameStatus({
  session,
  children,
}: {
  session: FrameSession;
  children: (state: Extract<FrameSession, { status: "signed-in" }>["state"]) => ReactNode;
}) {
  if (session.status === "working") {
    return (
      <p role="status" aria-busy="true">
        Signing you in…
      </p>
    );
  }
  if (session.status === "error") return <Alert kind="error">{session.message}</Alert>;
  if (session.status === "signed-out") return <Alert kind="warn">{session.reason}</Alert>;
  return <>{children(session.state)}</>;
}

/** A framed page's card: its heading, then what the frame's sign-in allows. */
export function FrameCard({
  title,
  titleId,
  session,
  children,
}: {
  title: string;
  titleId: string;
  session: FrameSession;
  children: (state: Extract<FrameSession, { status: "signed-in" }>["state"]) => ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={titleId} aria-live="polite">
      <h1 id={titleId}>{title}</h1>
      <FrameStatus session={session}>{children}</FrameStatus>
    </section>
  );
}
