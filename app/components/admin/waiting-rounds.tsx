import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { TableScroll } from "~/components/ui/table-scroll";
import type { waitingRounds } from "~/services/nol/version-timelines.server";

type Row = SerializeFrom<Awaited<ReturnType<typeof waitingRounds>>>[number];

const CAPTION = "Versions whose next round could go out";

/** /admin/waiting-rounds: the NoL versions whose window has closed with no next round sent, longest waiting first. */
export function WaitingRoundsPage({ rows }: { rows: Row[] }) {
  return (
    <section className="card card-wide" aria-labelledby="waiting-title">
      <p>
        <Link to="/admin">Admin</Link>
      </p>
      <h1 id="waiting-title">{CAPTION}</h1>
      <p className="lead">
        The respondents&apos; time to answer the last round has run out and the member has not sent the next round. Each
        member was reminded by e-mail unless they turned that reminder off.
      </p>
      {rows.length === 0 ? (
        <p>No version is waiting for its next round.</p>
      ) : (
        <TableScroll label={CAPTION}>
          <table className="data" aria-label={CAPTION}>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Cause</th>
                <th scope="col">Version</th>
                <th scope="col">Next round</th>
                <th scope="col">Could go out from</th>
                <th scope="col">Days waiting</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={`${row.userId}|${row.cause}|${row.version}`}>
                  <td>
                    <Link to={`/members/${row.userId}`}>{row.username}</Link>
                  </td>
                  <td>{row.cause}</td>
                  <td>
                    <Link to={row.href}>{row.version}</Link>
                  </td>
                  <td>{row.next}</td>
                  <td>{row.sinceShown}</td>
                  <td>{row.days.toLocaleString("en-US")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
