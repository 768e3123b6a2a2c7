import { Link, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

/**
 * Where a mailed link went when the site sends no e-mail (the built-in mail provider): to the
 * mail outbox administrators read. Nothing when the site has a mail server. The outbox opens
 * to an administrator only: a member signed in is told so rather than led to a page that
 * sends them elsewhere (setup, or a refusal).
 */
export function OutboxNote() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const outbox = root?.mailOutbox;
  if (!outbox) return null;
  const signedIn = root.navigation !== null;
  const admin = root.navigation?.admin === true;
  const outboxName = admin || !signedIn ? <Link to="/db/mail_outbox">mail outbox</Link> : "mail outbox";
  const demoWay = signedIn && !admin ? "log out and log in as admin to read it" : "log in as admin to read it";
  return (
    <p className="muted">
      This site sends no e-mail yet: its messages are sent to the {outboxName}, a page for administrators
      {outbox.demo ? ` (in the demo, ${demoWay})` : ""}.
    </p>
  );
}
