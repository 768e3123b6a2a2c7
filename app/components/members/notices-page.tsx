import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { RoundTimeline } from "~/components/nol/round-timeline";
import { Alert } from "~/components/ui/alert";
import { DataTable } from "~/components/ui/record-table";
import { SubmitButton } from "~/components/ui/submit-button";
import type { ReminderChoice } from "~/services/nol/reminders.server";
import type { memberTimelines } from "~/services/nol/version-timelines.server";
import type { noticesOverview } from "~/services/profile.server";
import type { ownCorrections } from "~/services/respondents.server";
import { ProfileCard } from "./profile-card";

/** /profile/notices: the member's notices by cause and version, with the way on. */
type VersionDocument = SerializeFrom<
  Awaited<ReturnType<typeof noticesOverview>>
>[number]["versions"][number]["documents"][number];

/**
 * A version's recorded rounds, each document to open or save, and its notarized copy. The PDFs
 * are resource routes: plain links, which the browser opens itself.
 */
function VersionDocuments({ version, documents }: { version: string; documents: VersionDocument[] }) {
  if (documents.length === 0) return null;
  return (
    <DataTable
      caption={`Documents of ${version}`}
      rows={documents.map((d) => ({ ...d, id: d.round }))}
      columns={[
        { header: "Document", rowHeader: true, cell: (d) => d.name },
        {
          header: "PDF",
          cell: (d) => (
            <>
              <a href={d.href} aria-label={`Open the ${d.name} of ${version}`}>
                Open
              </a>
              {" · "}
              <a href={d.download} download aria-label={`Download the ${d.name} of ${version}`}>
                Download
              </a>
            </>
          ),
        },
        {
          header: "Notarized copy",
          cell: (d) =>
            d.notarized ? (
              <a href={d.notarized} download aria-label={`Download the notarized ${d.name} of ${version}`}>
                Download the notarized PDF
              </a>
            ) : (
              "Not notarized"
            ),
        },
      ]}
    />
  );
}

export function NoticesPage({
  causes,
  corrections,
  reminders,
  remindersError,
  timelines,
}: {
  causes: SerializeFrom<Awaited<ReturnType<typeof noticesOverview>>>;
  corrections: SerializeFrom<Awaited<ReturnType<typeof ownCorrections>>>;
  /** The kinds of NoL reminder e-mail, each with whether the member gets it. */
  reminders: ReminderChoice[];
  remindersError: string | null;
  /** Each version's rounds over time. */
  timelines: SerializeFrom<{ versions: Awaited<ReturnType<typeof memberTimelines>>; trackingUrl: string }>;
}) {
  return (
    <ProfileCard page="notices" title="Your notices and documents">
      {causes.length === 0 ? (
        <p>
          You have no notices yet. <Link to="/nol">Open the notice creator</Link>.
        </p>
      ) : (
        causes.map((c) => (
          <article key={c.cause} aria-labelledby={`cause-${c.cause}`}>
            <h2 id={`cause-${c.cause}`}>{c.href ? <Link to={c.href}>{c.cause}</Link> : c.cause}</h2>
            <ul>
              {c.versions.map((v) => (
                <li key={v.version}>
                  {v.version}: next {v.step}
                  {v.notarizeHref ? (
                    <>
                      {" · "}
                      <Link to={v.notarizeHref}>Documents and notarizing</Link>
                    </>
                  ) : null}
                  {v.correctionHref ? (
                    <>
                      {" · "}
                      <Link to={v.correctionHref} aria-label={`File a correction of ${v.version}`}>
                        File a correction
                      </Link>
                    </>
                  ) : null}
                  <VersionDocuments version={v.version} documents={v.documents} />
                </li>
              ))}
            </ul>
          </article>
        ))
      )}
      {corrections.length > 0 ? (
        <>
          <h2>Your corrections</h2>
          <ul>
            {corrections.map((c) => (
              <li key={c.viewLink}>
                <Link to={c.viewLink}>Correction #{c.number}</Link> of {c.notice}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {timelines.versions.map((t, i) => (
        <RoundTimeline
          key={t.id}
          timeline={t.timeline}
          trackingBase={timelines.trackingUrl}
          calendarHref={t.calendarHref}
          title={`Timeline: ${t.cause} · ${t.version}`}
          titleId={`notice-timeline-${i}`}
        />
      ))}
      <ReminderChoices reminders={reminders} error={remindersError} />
    </ProfileCard>
  );
}

/** The kinds of NoL reminder e-mail, each on or off; every reminder's own link turns its kind off too. */
function ReminderChoices({ reminders, error }: { reminders: ReminderChoice[]; error: string | null }) {
  return (
    <Form method="post" className="form" aria-labelledby="reminders-title">
      <h2 id="reminders-title">Reminders by e-mail</h2>
      <p>We e-mail you about the days of your notices: turn off what you do not want.</p>
      {error ? <Alert kind="error">{error}</Alert> : null}
      <fieldset>
        <legend>E-mail me</legend>
        {reminders.map(({ kind, label, on }) => (
          <div className="checkbox" key={kind}>
            <input id={`reminder-${kind}`} type="checkbox" name="kinds" value={kind} defaultChecked={on} />
            <label htmlFor={`reminder-${kind}`}>{label}</label>
          </div>
        ))}
      </fieldset>
      <SubmitButton name="intent" value="reminders" pendingText="Saving…">
        Save the reminders
      </SubmitButton>
    </Form>
  );
}
