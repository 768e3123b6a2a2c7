import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CognitoEmbed } from "~/components/cognito-embed";
import type { seamlessPage } from "~/services/nol/seamless.server";
import { TableScroll } from "~/components/ui/table-scroll";

type Data = SerializeFrom<Awaited<ReturnType<typeof seamlessPage>>>;

const ROUND_COLUMNS = ["Round", "Mailed", "Delivered"];

/** One entry: in its hosted form's embed, or its rounds and bill as read here. */
export function EntryPage({ data: e }: { data: Data }) {
  if (e.embed) {
    return (
      <section className="card" aria-labelledby="entry-title">
        <h1 id="entry-title">{e.label}</h1>
        <CognitoEmbed embed={e.embed} pending={e.pending} testMode={e.testMode} />
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="entry-title">
      <p>
        <Link to={e.causeHref}>{e.causeName}</Link> · {e.version}
      </p>
      <h1 id="entry-title">{e.label}</h1>
      <p className="muted">
        {e.owner}
        {e.status ? ` · ${e.status}` : ""}
        {e.readOnly ? " · read-only" : ""}
      </p>
      {e.rounds.length > 0 ? (
        <TableScroll label="Rounds">
          <table className="data">
            <thead>
              <tr>
                {ROUND_COLUMNS.map((header) => (
                  <th scope="col" key={header}>
                    {header}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {e.rounds.map((r) => (
                <tr key={r.round}>
                  <td>{r.label}</td>
                  <td>{r.mailed ?? "—"}</td>
                  <td>{r.delivered ? "yes" : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {e.bill ? (
        <ul>
          <li>Prepared: {e.bill.preparationDate ?? "—"}</li>
          <li>Administrative judgment: {e.bill.administrativeJudgment ?? "—"}</li>
          <li>Escalation fee: {e.bill.escalationFee ?? "—"}</li>
          <li>Total: {e.bill.total ?? "—"}</li>
          <li>Mailed: {e.bill.mailed ?? "—"}</li>
          <li>Delivered: {e.bill.delivered ? "yes" : "—"}</li>
        </ul>
      ) : null}
    </section>
  );
}
