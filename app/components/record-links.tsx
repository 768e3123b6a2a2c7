import { Link } from "@remix-run/react";

/** The site's own records that admins can read under /db. */
export const RECORDS = [
  { to: "/db/mail_outbox", label: "Mail outbox" },
  { to: "/db/audit_log", label: "Audit log" },
  { to: "/db/error_reports", label: "Error reports" },
  { to: "/db/support_requests", label: "Support requests" },
] as const;

export function LinkList({ links }: { links: readonly { to: string; label: string }[] }) {
  return (
    <ul>
      {links.map((l) => (
        <li key={l.to}>
          <Link to={l.to}>{l.label}</Link>
        </li>
      ))}
    </ul>
  );
}
