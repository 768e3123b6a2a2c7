import type { SubmissionResult } from "@conform-to/react";
import type { SerializeFrom } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { ErrorList, PlainField } from "~/components/forms/fields";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import { CAUSE_STATUSES, causeFormsWords, causeStatusWords, NOT_OFFERED } from "~/domain/cause-catalogue";
import type { causeCatalogueAdmin } from "~/services/cause-admin.server";
import { WINDOW_DAYS, WINDOW_KINDS, WINDOW_LABELS, type WindowKind } from "~/domain/nol/timeline";

type Data = SerializeFrom<Awaited<ReturnType<typeof causeCatalogueAdmin>>>;
type Result = SubmissionResult<string[]> | undefined;

/** The errors of the form that was sent, shown by that form only. */
function errorsFor(result: Result, code: string | null, field: string): string[] | undefined {
  const sent = (result?.initialValue as Record<string, unknown> | undefined) ?? {};
  const sameForm = code === null ? sent.intent === "add-cause" : sent.intent === "save-cause" && sent.code === code;
  return sameForm ? (result?.error?.[field] ?? undefined) : undefined;
}

/** A text field of a cause's form: of the cause `code`, or of a new cause when `code` is null. */
function TextInput({
  code,
  name,
  label,
  value = "",
  lastResult,
}: {
  code: string | null;
  name: string;
  label: string;
  value?: string;
  lastResult: Result;
}) {
  return (
    <PlainField
      id={code ? `cause-${code}-${name}` : `new-${name}`}
      label={label}
      name={name}
      defaultValue={value}
      required
      maxLength={80}
      error={errorsFor(lastResult, code, name)?.[0]}
    />
  );
}

/** The respondents' windows a cause sets; an empty field keeps the configured default. */
function WindowInputs({
  cause,
  defaults,
  lastResult,
}: {
  cause: Data["causes"][number];
  defaults: Data["defaultWindows"];
  lastResult: Result;
}) {
  const own = cause.windows as Partial<Record<WindowKind, number>>;
  return (
    <fieldset>
      <legend>Time to answer each round (days)</legend>
      <p className="muted">From the delivery of a round until its next may go out. Empty: the default.</p>
      <div className="list-filters">
        {WINDOW_KINDS.map((kind) => {
          const id = `cause-${cause.code}-window-${kind}`;
          const errors = errorsFor(lastResult, cause.code, `window.${kind}`);
          return (
            <div className="field" key={kind}>
              <label htmlFor={id}>{WINDOW_LABELS[kind]}</label>
              <input
                id={id}
                name={`window.${kind}`}
                type="number"
                inputMode="numeric"
                min={WINDOW_DAYS.min}
                max={WINDOW_DAYS.max}
                step={1}
                defaultValue={own[kind] ?? ""}
                placeholder={`${defaults[kind]} (default)`}
                aria-invalid={errors ? true : undefined}
                aria-describedby={errors ? `${id}-error` : undefined}
              />
              <ErrorList id={`${id}-error`} errors={errors} />
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

function CauseEditor({
  cause,
  countries,
  defaults,
  lastResult,
}: {
  cause: Data["causes"][number];
  countries: Data["countries"];
  defaults: Data["defaultWindows"];
  lastResult: Result;
}) {
  const id = (part: string) => `cause-${cause.code}-${part}`;
  const formErrors = errorsFor(lastResult, cause.code, "");
  return (
    <article className="card" aria-labelledby={id("title")}>
      <h2 id={id("title")}>
        {cause.name} <span className="muted">({cause.code})</span>
      </h2>
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="save-cause" />
        <input type="hidden" name="code" value={cause.code} />
        {formErrors ? <ErrorList errors={formErrors} /> : null}
        <TextInput code={cause.code} name="name" label="Name" value={cause.name} lastResult={lastResult} />
        <TextInput code={cause.code} name="label" label="Label" value={cause.label} lastResult={lastResult} />
        <fieldset>
          <legend>Offered in</legend>
          <div className="list-filters">
            {countries.map((country) => (
              <div className="field" key={country.code}>
                <label htmlFor={id(`status-${country.code}`)}>{country.name}</label>
                <select
                  id={id(`status-${country.code}`)}
                  name={`status.${country.code.trim()}`}
                  defaultValue={cause.status[country.code.trim()] ?? NOT_OFFERED}
                >
                  <option value={NOT_OFFERED}>Not offered</option>
                  {CAUSE_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {causeStatusWords(s)}
                    </option>
                  ))}
                </select>
              </div>
            ))}
          </div>
        </fieldset>
        <WindowInputs cause={cause} defaults={defaults} lastResult={lastResult} />
        <div className="checkbox">
          <input
            id={id("notarize")}
            type="checkbox"
            name="allowNotarizeOnline"
            value="on"
            defaultChecked={cause.allowNotarizeOnline}
          />
          <label htmlFor={id("notarize")}>New versions may be notarized online</label>
        </div>
        <p className="muted">A change of this reaches new member versions only; a member's page changes one version.</p>
        <SubmitButton name="intent" value="save-cause" pendingText="Saving…" aria-label={`Save ${cause.name}`}>
          Save
        </SubmitButton>
      </Form>
    </article>
  );
}

/** /causes: each cause's statuses by country (live, testing, beta), its forms, and the features of its new versions. */
export function CauseCatalogue({ data, lastResult }: { data: Data; lastResult: Result }) {
  return (
    <>
      <section className="card card-wide" aria-labelledby="causes-title">
        <h1 id="causes-title">Causes</h1>
        {data.causes.length === 0 ? (
          <Alert kind="warn" title="Missing causes">
            The catalogue has no causes: members cannot start a notice until one is added.
          </Alert>
        ) : null}
        <p>
          Every cause uses the NoL forms: {causeFormsWords()}. An available (live) cause is open to NoL creators and
          testers, a testing cause to testers only, and a started (beta) cause is listed but closed.
        </p>
        <Form method="post" className="form">
          <h2>Add a cause</h2>
          <input type="hidden" name="intent" value="add-cause" />
          <TextInput code={null} name="code" label="Code (2 to 6 letters)" lastResult={lastResult} />
          <TextInput code={null} name="name" label="Name" lastResult={lastResult} />
          <TextInput code={null} name="label" label="Label" lastResult={lastResult} />
          <SubmitButton pendingText="Adding…">Add the cause</SubmitButton>
        </Form>
      </section>
      {data.causes.map((cause) => (
        <CauseEditor
          key={cause.code}
          cause={cause}
          countries={data.countries}
          defaults={data.defaultWindows}
          lastResult={lastResult}
        />
      ))}
    </>
  );
}
