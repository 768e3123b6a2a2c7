import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { DataTable } from "~/components/ui/record-table";
import type { waitingRounds } from "~/services/nol/version-timelines.server";
import { AdminSection } from "~/components/admin/admin-section";

type Row = SerializeFrom<Awaited<ReturnType<typeof waitingRounds>>>[number];

const CAPTION = "Versions whose next round could go out";

/** /admin/waiting-rounds: the NoL versions whose window has closed with no next round sent, longest waiting first. */
export function WaitingRoundsPage({ rows }: { rows: Row[] }) {
  return (
    <AdminSection id="waiting-title" title={CAPTION}>
      <p className="lead">
        The respondents&apos; time to answer the last round has run out and the member has not sent the next round. Each
        member was reminded by e-mail unless they turned that reminder off.
      </p>
      {rows.length === 0 ? (
        <p>No version is waiting for its next round.</p>
      ) : (
        <DataTable
          caption={CAPTION}
          hiddenCaption
          rows={rows.map((row) => ({ ...row, id: `${row.userId}|${row.cause}|${row.version}` }))}
          columns={[
            { header: "Member", cell: (row) => <Link to={`/members/${row.userId}`}>{row.username}</Link> },
            { header: "Cause", cell: (row) => row.cause },
            { header: "Version", cell: (row) => <Link to={row.href}>{row.version}</Link> },
            { header: "Next round", cell: (row) => row.next },
            { header: "Could go out from", cell: (row) => row.sinceShown },
            { header: "Days waiting", cell: (row) => row.days.toLocaleString("en-US") },
          ]}
        />
      )}
    </AdminSection>
  );
}
