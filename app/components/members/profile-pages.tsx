import type { SubmissionResult } from "@conform-to/react";
import { getFormProps } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { Field, FormErrors, useSchemaForm } from "~/components/forms/fields";
import { ProfileFacts } from "~/components/members/member-facts";
import { RoundTimeline } from "~/components/nol/round-timeline";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import type { profileOf } from "~/services/members.server";
import type { ReminderChoice } from "~/services/nol/reminders.server";
import type { memberTimelines } from "~/services/nol/version-timelines.server";
import type { noticesOverview } from "~/services/profile.server";
import type { ownCorrections } from "~/services/respondents.server";
import { DataTable } from "~/components/ui/record-table";
import { DataArchiveSection, type DataArchive } from "./data-archive";
import { ProfileCard } from "./profile-card";

export { ProfileNav } from "./profile-card";

export type FormReplyOf = { intent: string; result: SubmissionResult<string[]> } | null;

/** The answer of the form that was sent, for that form only. */
const replyFor = (reply: FormReplyOf, intent: string) => (reply?.intent === intent ? reply.result : undefined);

/**
 * /profile: the member's facts; their name, e-mail address and password, each changed by its own
 * form; the download of their data.
 */
export function AccountPage({
  profile,
  reply,
  archive,
}: {
  profile: SerializeFrom<typeof profileOf>;
  reply: FormReplyOf;
  archive: DataArchive;
}) {
  const [nameForm, nameFields] = useSchemaForm(() => import("~/domain/profile").then((m) => m.nameFormSchema), {
    id: "name-form",
    lastResult: replyFor(reply, "name"),
    defaultValue: { name: profile.name ?? "" },
  });
  const [emailForm, emailFields] = useSchemaForm(() => import("~/domain/profile").then((m) => m.emailFormSchema), {
    id: "email-form",
    lastResult: replyFor(reply, "email"),
  });
  const [passwordForm, passwordFields] = useSchemaForm(
    () => import("~/domain/profile").then((m) => m.passwordFormSchema),
    {
      id: "password-form",
      lastResult: replyFor(reply, "password"),
    },
  );
  return (
    <ProfileCard page="account" title={profile.username}>
      <ProfileFacts member={profile} />
      <h2>Your name</h2>
      <FormErrors form={nameForm} />
      <Form method="post" className="form" {...getFormProps(nameForm)}>
        <Field meta={nameFields.name} label="Name" autoComplete="name" hint="Shown to you and the admins only." />
        <div className="actions">
          <SubmitButton name="intent" value="name" pendingText="Saving…">
            Save the name
          </SubmitButton>
        </div>
      </Form>
      <h2>Your e-mail address</h2>
      <FormErrors form={emailForm} />
      <Form method="post" className="form" {...getFormProps(emailForm)}>
        <Field
          meta={emailFields.email}
          label="New e-mail address"
          type="email"
          autoComplete="email"
          hint={`It stays ${profile.email} until you open the link we send to the new address.`}
        />
        <div className="actions">
          <SubmitButton name="intent" value="email" pendingText="Sending…">
            Send the confirmation link
          </SubmitButton>
        </div>
      </Form>
      <h2>Your password</h2>
      <FormErrors form={passwordForm} />
      <Form method="post" className="form" {...getFormProps(passwordForm)}>
        <Field meta={passwordFields.current} label="Current password" type="password" autoComplete="current-password" />
        <Field meta={passwordFields.password} label="New password" type="password" autoComplete="new-password" />
        <Field meta={passwordFields.confirm} label="New password again" type="password" autoComplete="new-password" />
        <div className="actions">
          <SubmitButton name="intent" value="password" pendingText="Saving…">
            Change the password
          </SubmitButton>
        </div>
      </Form>
      <DataArchiveSection archive={archive} />
    </ProfileCard>
  );
}

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
