import type { SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState } from "react";
import { CheckboxField, FormErrors, formProps, useFormState, useSchemaValidation } from "~/components/forms/fields";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import { COMPANY_TAG, ENTRY_TYPE } from "~/domain/forms";
import { safeLinkHref } from "~/domain/links";
import type { stepPage } from "~/services/nol/step-page.server";
import { RoundServicePanel } from "./round-service";
import { RoundTimeline } from "./round-timeline";
import { StepFields } from "./step-fields";

/** The hosted form's embed, loaded only where a step is taken at the forms service. */
const CognitoEmbed = lazy(() => import("~/components/cognito-embed").then((m) => ({ default: m.CognitoEmbed })));

export type StepData = SerializeFrom<Extract<Awaited<ReturnType<typeof stepPage>>, { redirectTo: null }>["page"]>;

/** One step of a version: its built-in form, or the hosted form that takes it. */
export function StepPage({ data, lastResult }: { data: StepData; lastResult?: SubmissionResult<string[]> }) {
  return (
    <section className="card" aria-labelledby="step-title">
      <p>
        <Link to={data.causeBase}>{data.cause.name}</Link> · {data.version}
      </p>
      <h1 id="step-title">{data.step.label}</h1>
      {data.notices.map((notice) => (
        <Alert key={notice.message} kind={notice.kind}>
          {notice.message}
        </Alert>
      ))}
      {data.directoryHref && !data.hosted ? (
        <p>
          <Link to={data.directoryHref}>Find a respondent in the directory</Link>
        </p>
      ) : null}
      {data.mailedNotice ? <MailedNotice notice={data.mailedNotice} /> : null}
      {data.roundService ? <RoundServicePanel service={data.roundService} trackingBase={data.trackingUrl} /> : null}
      {data.roundService?.mailAgainHref ? (
        <p>
          Those not served yet can be mailed again from here, each a new letter by USPS Certified Mail:{" "}
          <Link to={data.roundService.mailAgainHref}>Mail it for me</Link>
        </p>
      ) : null}
      {data.hosted ? (
        <HostedStep hosted={data.hosted} testMode={data.testMode} />
      ) : data.roundService?.held ? null : (
        <StepForm data={data} lastResult={lastResult} />
      )}
      <RoundTimeline timeline={data.timeline} trackingBase={data.trackingUrl} calendarHref={data.calendarHref} />
    </section>
  );
}

/** What a mailing step mails: the round's letters, to print and put in window envelopes. */
function MailedNotice({ notice }: { notice: NonNullable<StepData["mailedNotice"]> }) {
  return (
    <section className="mailed-notice" aria-labelledby="mailed-notice-title">
      <h2 id="mailed-notice-title">The letters to mail</h2>
      <p>
        The notice is one letter per respondent, each starting on a new page with your return address and the
        respondent's address placed for a #10 window envelope. Print it, fold each letter in three and mail each in its
        own envelope.
      </p>
      <p>
        <a href={notice.href} download>
          Download {notice.name} (PDF)
        </a>
      </p>
      {notice.signed ? (
        <p>
          {notice.signed}. {notice.signHref ? <Link to={notice.signHref}>See the signature or sign again</Link> : null}
        </p>
      ) : notice.signHref ? (
        <p>
          Sign it electronically, once for the round, before it is mailed (or download it with a line to sign by hand):{" "}
          <Link to={notice.signHref}>Sign the notice</Link>
        </p>
      ) : null}
      {notice.mailHref ? (
        <p>
          Or have it mailed for you, each letter by USPS Certified Mail with a return receipt, its tracking and delivery
          recorded here: <Link to={notice.mailHref}>Mail it for me</Link>
        </p>
      ) : null}
    </section>
  );
}

function HostedStep({ hosted, testMode }: { hosted: NonNullable<StepData["hosted"]>; testMode: boolean }) {
  if (hosted.kind === "embed")
    return (
      <Suspense fallback={<p role="status">Loading the form…</p>}>
        <CognitoEmbed embed={hosted.embed} pending={hosted.pending} testMode={testMode} />
      </Suspense>
    );
  const editHref = safeLinkHref(hosted.editLink);
  if (!editHref)
    return <Alert kind="warn">This entry was not made at the forms service, so it cannot be continued there.</Alert>;
  return (
    <p>
      Record this step in your entry at the forms service:{" "}
      <a href={editHref} rel="noreferrer">
        open your entry
      </a>
      . Your notices here update when the forms service sends the entry back.
    </p>
  );
}

/** The member's time zone, sent with the form (spec §9 "The form timezone is sent"). */
function TimezoneField() {
  const [zone, setZone] = useState("UTC");
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"), []);
  return <input type="hidden" name="timezone" value={zone} />;
}

/** The values a step's form starts with: what the version already knows. */
function defaultsOf(data: StepData): Record<string, string> {
  const values: Record<string, string> = {
    claimantName: data.prefill.claimantName,
    claimantAddress: data.prefill.claimantAddress,
    dailyAmount: data.prefill.dailyAmount,
  };
  for (let slot = 1; slot <= data.slots; slot += 1) {
    const known = data.respondents[slot];
    if (known?.name) values[`r${slot}Name`] = known.name;
    if (known?.address) values[`r${slot}Address`] = known.address;
    values[`r${slot}Type`] = known?.type ?? "Individual";
  }
  return values;
}

function earlyWords(next: { name: string; availableShown: string | null }): string {
  return `${next.name} can go out from ${next.availableShown ?? "later"}, when the respondents' time to answer the last round has passed. You may still send it now.`;
}

function StepForm({ data, lastResult }: { data: StepData; lastResult?: SubmissionResult<string[]> }) {
  const { step } = data;
  const validate = useSchemaValidation(
    () => import("~/domain/nol/step-form").then((m) => m.stepSchema(step, data.checks)),
    `${step.kind}/${step.round}`,
  );
  const [form, fields] = useFormState({ lastResult, defaultValue: defaultsOf(data), check: validate });
  return (
    <Form method="post" className="form" {...formProps(form)}>
      <FormErrors form={form} />
      <input type="hidden" name="version" value={data.version} />
      <input type="hidden" name="company" value={COMPANY_TAG} />
      <input type="hidden" name="entryType" value={ENTRY_TYPE} />
      <TimezoneField />
      <StepFields data={data} fields={fields} />
      {data.early ? (
        <>
          <Alert kind="warn">{earlyWords(data.early)}</Alert>
          <CheckboxField meta={fields.sendEarly!} label="Send it early anyway" />
        </>
      ) : null}
      <div className="actions">
        <SubmitButton pendingText="Saving…">Save {step.label}</SubmitButton>
      </div>
    </Form>
  );
}
