import type { SerializeFrom } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { SecurityFactors, type SecurityData } from "~/components/factors/security-factors";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatDateTime } from "~/lib/format";
import type { sessionList } from "~/services/profile.server";
import { ProfileCard } from "./profile-card";
import { RowAction } from "~/components/ui/row-action";

/** /profile/security: where the member is signed in, and logging out any of it. */
export function SecurityPage({
  sessions,
  security,
  error,
}: {
  sessions: SerializeFrom<Awaited<ReturnType<typeof sessionList>>>;
  security: SecurityData;
  error: string | null;
}) {
  const others = sessions.filter((s) => !s.current);
  return (
    <ProfileCard page="security" title="Security">
      <SecurityFactors security={security} error={error} />
      <h2>Where you are signed in</h2>
      <table className="data data-stack">
        <caption>Your sessions</caption>
        <thead>
          <tr>
            <th scope="col">Device</th>
            <th scope="col">Address</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="visually-hidden">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.code} aria-current={s.current ? "true" : undefined}>
              <th scope="row">
                {s.device}
                {s.current ? <span className="badge">This device</span> : null}
              </th>
              <td data-label="Address">{s.ip ?? "—"}</td>
              <td data-label="Last used">{formatDateTime(s.lastSeenAt)}</td>
              <td>
                {s.current ? null : (
                  <RowAction
                    intent="end-session"
                    field="session"
                    value={s.code}
                    pendingText="Logging out…"
                    label={`Log out ${s.device}, last used ${formatDateTime(s.lastSeenAt)}`}
                  >
                    Log out
                  </RowAction>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {others.length > 0 ? (
        <Form method="post" className="actions">
          <SubmitButton name="intent" value="end-other-sessions" pendingText="Logging out…">
            Log out other sessions
          </SubmitButton>
        </Form>
      ) : (
        <p>You are signed in on this device only.</p>
      )}
    </ProfileCard>
  );
}
