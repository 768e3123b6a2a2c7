import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CognitoEmbed } from "~/components/cognito-embed";
import type { seamlessPage } from "~/services/nol/seamless.server";
import { TableScroll } from "~/components/ui/table-scroll";

type Data = SerializeFrom<Awaited<ReturnType<typeof seamlessPage>>>;

const ROUND_COLUMNS = ["Round", "Mailed", "Proof of delivery"];

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
      {e.answers ? <Answers answers={e.answers} billed={e.bill !== null} /> : null}
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
                  <td>{r.mailed}</td>
                  <td>{r.delivered}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : null}
      {e.bill ? (
        <ul>
          <li>Prepared: {e.bill.preparationDate}</li>
          <li>Administrative judgment: {e.bill.administrativeJudgment ?? "—"}</li>
          <li>Escalation fee: {e.bill.escalationFee ?? "—"}</li>
          <li>Total: {e.bill.total ?? "—"}</li>
          <li>Mailed: {e.bill.mailed}</li>
          <li>Proof of delivery: {e.bill.delivered}</li>
        </ul>
      ) : null}
    </section>
  );
}

/** The entry's answers, to read: the claimant, the daily amount and the respondents. */
function Answers({ answers: a, billed }: { answers: NonNullable<Data["answers"]>; billed: boolean }) {
  return (
    <section aria-labelledby="answers-title">
      <h2 id="answers-title">Answers</h2>
      <dl className="facts">
        <dt>Claimant</dt>
        <dd>{a.claimant}</dd>
        <dt>Daily amount</dt>
        <dd>{a.dailyAmount ?? "—"}</dd>
      </dl>
      {a.respondents.length > 0 ? (
        <TableScroll label={billed ? "Respondents billed" : "Respondents"}>
          <table className="data">
            <caption>{billed ? "Respondents billed" : "Respondents"}</caption>
            <thead>
              <tr>
                <th scope="col">Slot</th>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
              </tr>
            </thead>
            <tbody>
              {a.respondents.map((r) => (
                <tr key={r.slot}>
                  <td>{r.slot}</td>
                  <th scope="row">{r.name}</th>
                  <td>{r.type}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      ) : (
        <p>No respondents named.</p>
      )}
    </section>
  );
}
