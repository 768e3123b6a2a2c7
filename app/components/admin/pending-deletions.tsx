import { Link } from "@remix-run/react";

export type PendingDeletionRow = { id: string; username: string; dueOn: string };

/** /members: the accounts deleted and waiting for their erasure, the soonest first. */
export function PendingDeletions({ rows }: { rows: PendingDeletionRow[] }) {
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby="pending-deletions-title">
      <h2 id="pending-deletions-title">Deleted accounts waiting for their erasure</h2>
      <ul>
        {rows.map((row) => (
          <li key={row.id}>
            <Link to={`/members/${row.id}`}>{row.username}</Link>: erased on {row.dueOn}
          </li>
        ))}
      </ul>
    </section>
  );
}
