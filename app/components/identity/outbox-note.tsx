import { Link, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

/**
 * Where a mailed link went when the site sends no e-mail (the built-in mail provider): to the
 * mail outbox administrators read. Nothing when the site has a mail server.
 */
export function OutboxNote() {
  const outbox = useRouteLoaderData<typeof rootLoader>("root")?.mailOutbox;
  if (!outbox) return null;
  return (
    <p className="muted">
      This site has no mail server set up yet, so its messages wait in the <Link to="/db/mail_outbox">mail outbox</Link>{" "}
      that administrators read
      {outbox.demo ? " (in the demo, log in as admin to open it)" : ""}.
    </p>
  );
}
