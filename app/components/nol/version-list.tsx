import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { useMemo } from "react";
import { Field, formProps, useSchemaForm } from "~/components/forms/fields";
import { ProofNotarize } from "~/components/nol/proof-notarize";
import { RoundTimeline } from "~/components/nol/round-timeline";
import { Alert } from "~/components/ui/alert";
import { safeLinkHref } from "~/domain/links";
import type { versionsPage } from "~/services/nol/pages.server";

type Data = SerializeFrom<Awaited<ReturnType<typeof versionsPage>>["page"]> & {
  badVersion: { value: string; message: string } | null;
};
type Version = Data["versions"][number];

/** A cause's versions: each with its next step, its entries, and the way on. */
export function VersionList({ data }: { data: Data }) {
  const proofNotarize = data.timeline?.proofNotarize ?? null;
  return (
    <section className="card" aria-labelledby="versions-title">
      <p>
        <Link to={data.base}>All causes</Link>
      </p>
      <h1 id="versions-title">{data.cause.name}</h1>
      <p className="muted">{data.formName}</p>
      {data.selectionNotice ? <Alert kind="warn">{data.selectionNotice}</Alert> : null}
      {data.timeline ? (
        <RoundTimeline
          timeline={data.timeline.view}
          trackingBase={data.timeline.trackingUrl}
          calendarHref={data.timeline.calendarHref}
          title={`Timeline: ${data.timeline.version}`}
          proofActions={proofNotarize ? (row) => <ProofNotarize row={row} view={proofNotarize} /> : undefined}
        />
      ) : null}
      {data.versions.length === 0 ? <p>You have no notices for this cause yet.</p> : null}
      {data.versions.map((v) => (
        <VersionCard key={v.version} version={v} clearSelectionHref={data.clearSelectionHref} />
      ))}
      <h2>Start a new notice</h2>
      <NewVersionForm
        action={`${data.causeBase}/notice`}
        owner={data.ownsNotices ? null : data.owner}
        badVersion={data.badVersion}
        reusable={data.reusable}
      />
    </section>
  );
}

function VersionCard({ version: v, clearSelectionHref }: { version: Version; clearSelectionHref: string }) {
  return (
    <article
      className={v.selected ? "version version-selected" : "version"}
      aria-labelledby={`v-${v.version}`}
      aria-current={v.selected ? "true" : undefined}
    >
      <h2 id={`v-${v.version}`}>
        {v.version}
        {v.selected ? <span className="badge">Selected</span> : null}
      </h2>
      <p>
        {v.roundsDone ? <>Done: {v.roundsDone}. </> : null}
        Next: <strong data-testid="next-step">{v.step.label}</strong>
        {v.notarizeHref ? (
          <>
            {" · "}
            <Link to={v.notarizeHref}>Notarize the notice online</Link>
          </>
        ) : null}
      </p>
      <ul>
        {v.entries.map((e) => {
          const viewHref = safeLinkHref(e.viewLink);
          const editHref = safeLinkHref(e.editLink);
          return (
            <li key={e.id}>
              <strong>{e.label}</strong>
              {e.status ? ` (${e.status})` : ""}
              {/* Document links: the client router reads the hash's trailing "*" as a wildcard. */}
              {viewHref ? (
                <>
                  {" · "}
                  <a href={viewHref} aria-label={`${e.label}: view your answers`}>
                    view your answers
                  </a>
                </>
              ) : null}
              {editHref ? (
                <>
                  {" · "}
                  <a href={editHref} aria-label={`${e.label}: change your answers`}>
                    Edit
                  </a>
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
      {v.serviceNote ? <p className="service-note">{v.serviceNote}.</p> : null}
      <div className="actions">
        {v.nextHref ? (
          <Link className="button button-primary" to={v.nextHref}>
            Continue: {v.step.label}
          </Link>
        ) : (
          <Link className="button" to={v.elsewhere.href}>
            Continue: {v.step.label}
            <span className="muted"> (on the {v.elsewhere.name.toLowerCase()} page)</span>
          </Link>
        )}
        <Link to={v.timelineHref} aria-label={`The timeline of ${v.version}`}>
          Timeline
        </Link>
        {v.selected ? <Link to={clearSelectionHref}>Clear the selection</Link> : null}
      </div>
    </article>
  );
}

/** A new version starts at its first step's page, named in the query. */
function NewVersionForm({
  action,
  owner,
  badVersion,
  reusable,
}: {
  action: string;
  owner: string | null;
  badVersion: { value: string; message: string } | null;
  reusable: string[];
}) {
  // A name the step page refused (sent before the page's check had loaded, or without JavaScript).
  // The form reports a result each time it is given a new one: the same result keeps the same object.
  const refused = badVersion?.value;
  const reason = badVersion?.message;
  const lastResult = useMemo(
    () =>
      refused !== undefined && reason !== undefined
        ? { status: "error" as const, initialValue: { version: refused }, error: { version: [reason] } }
        : undefined,
    [refused, reason],
  );
  const [form, fields] = useSchemaForm(() => import("~/domain/nol/entries").then((m) => m.newVersionSchema), {
    lastResult,
  });
  return (
    <Form method="get" action={action} className="form" {...formProps(form)}>
      {owner ? <input type="hidden" name="username" value={owner} /> : null}
      <Field
        meta={fields.version}
        label="Name of this version"
        hint="For example the respondent's office and the year."
      />
      {reusable.length > 0 ? (
        <div className="field">
          <label htmlFor="new-version-from">Start from the answers of</label>
          <p id="new-version-from-hint" className="field-hint">
            Its claimant's name, daily amount and respondents fill the new notice, for you to change before you save.
          </p>
          <select id="new-version-from" name="from" defaultValue="" aria-describedby="new-version-from-hint">
            <option value="">No earlier version: a blank notice</option>
            {reusable.map((version) => (
              <option key={version}>{version}</option>
            ))}
          </select>
        </div>
      ) : null}
      <div className="actions">
        <button type="submit" className="button">
          Start
        </button>
      </div>
    </Form>
  );
}
