import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { CognitoEmbed } from "~/components/cognito-embed";
import type { seamlessPage } from "~/services/nol/seamless.server";
import { DataTable } from "~/components/ui/record-table";

type Data = SerializeFrom<Awaited<ReturnType<typeof seamlessPage>>>;

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
        <DataTable
          label="Rounds"
          rows={e.rounds.map((r) => ({ ...r, id: r.round }))}
          columns={[
            { header: "Round", cell: (r) => r.label },
            { header: "Mailed", cell: (r) => r.mailed },
            { header: "Proof of delivery", cell: (r) => r.delivered },
            { header: "Each respondent", cell: (r) => <RespondentLines lines={r.respondents} /> },
          ]}
        />
      ) : null}
      {e.bill ? (
        <ul>
          <li>Prepared: {e.bill.preparationDate}</li>
          <li>Administrative judgment: {e.bill.administrativeJudgment ?? "—"}</li>
          <li>Escalation fee: {e.bill.escalationFee ?? "—"}</li>
          <li>Total: {e.bill.total ?? "—"}</li>
          <li>Mailed: {e.bill.mailed}</li>
          <li>Proof of delivery: {e.bill.delivered}</li>
          {e.bill.respondents.length > 0 ? (
            <li>
              Each respondent: <RespondentLines lines={e.bill.respondents} />
            </li>
          ) : null}
        </ul>
      ) : null}
    </section>
  );
}

/** Each respondent of a round on a line: where their envelope stands. */
function RespondentLines({ lines }: { lines: string[] }) {
  if (lines.length === 0) return <>—</>;
  return (
    <ul className="plain-list">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
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
        <dt>Claimant's address</dt>
        <dd>{a.claimantAddress ?? "Not given"}</dd>
        <dt>Daily amount</dt>
        <dd>{a.dailyAmount ?? "—"}</dd>
      </dl>
      {a.respondents.length > 0 ? (
        <DataTable
          caption={billed ? "Respondents billed" : "Respondents"}
          rows={a.respondents.map((r) => ({ ...r, id: r.slot }))}
          columns={[
            { header: "Slot", cell: (r) => r.slot },
            { header: "Name", rowHeader: true, cell: (r) => r.name },
            { header: "Type", cell: (r) => r.type },
            { header: "Address", cell: (r) => r.address ?? "Not given" },
          ]}
        />
      ) : (
        <p>No respondents named.</p>
      )}
    </section>
  );
}
