import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { PlainField } from "~/components/forms/inputs";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import type { respondentServicePage } from "~/services/nol/respondent-service.server";

type Data = SerializeFrom<Awaited<ReturnType<typeof respondentServicePage>>>;
type Result = {
  error: string;
  intent: string;
  fieldErrors: Record<string, string[] | undefined>;
  values: Record<string, string>;
};

/** One respondent of a round: where their envelope stands, and a form for each thing left to record. */
export function RespondentServicePage({ data, result }: { data: Data; result?: Result }) {
  const r = data.respondent;
  // What the last try of a form sent, and its errors, for that form only.
  const form = (intent: string): Sent => ({
    intent,
    value: (name) => (result?.intent === intent ? result.values[name] : undefined),
    error: (name) => (result?.intent === intent ? (result.fieldErrors[name]?.[0] ?? null) : null),
  });
  return (
    <section className="card" aria-labelledby="service-title">
      <p>
        <Link to={data.versionHref}>
          {data.causeName} · {data.version}
        </Link>
      </p>
      <h1 id="service-title">
        {r.slot}. {r.name}: {data.roundName}
      </h1>
      {result?.error ? <Alert kind="error">{result.error}</Alert> : null}
      <dl className="timeline-facts">
        <dt>Address</dt>
        <dd>{r.address ?? "Not given"}</dd>
        <dt>Now</dt>
        <dd>
          {r.words}
          {r.by === "hand" ? " (by hand)" : ""}
        </dd>
        {r.tracking ? (
          <>
            <dt>Tracking</dt>
            <dd className="tracking-number">{r.tracking}</dd>
          </>
        ) : null}
        {r.earlier.length > 0 ? (
          <>
            <dt>Before</dt>
            {r.earlier.map((s, i) => (
              <dd key={i}>
                {s.by === "app" ? "Mailed from here" : "Mailed by hand"}
                {s.mailedShown ? ` on ${s.mailedShown}` : ""}
                {s.tracking ? ` · ${s.tracking}` : ""} · {s.status}
              </dd>
            ))}
          </>
        ) : null}
      </dl>
      {data.intents.length === 0 ? (
        <p>
          Nothing is left to record for {r.name} in this round. <Link to={data.versionHref}>Back to the version</Link>
        </p>
      ) : null}
      {data.mailAgainHref ? (
        <p>
          Have the notice mailed to {r.name} again from here, by USPS Certified Mail with a return receipt:{" "}
          <Link to={data.mailAgainHref}>Mail it for me</Link>. Or record below a letter you mailed yourself.
        </p>
      ) : null}
      {data.intents.includes("mailed") ? (
        <IntentForm intent="mailed" title={`I mailed the notice to ${r.name} by hand`} button="Record the mailing">
          <p>Each envelope has its own tracking number: give the one of the envelope to {r.name}.</p>
          <DayField form={form("mailed")} label="Mailing date" min={data.noticeOn} max={data.today} />
          <PlainField
            id="mailed-tracking"
            name="tracking"
            label="Tracking number"
            required
            autoComplete="off"
            defaultValue={form("mailed").value("tracking")}
            error={form("mailed").error("tracking")}
          />
        </IntentForm>
      ) : null}
      {data.intents.includes("delivered") ? (
        <IntentForm intent="delivered" title="The envelope was delivered" button="Record the delivery">
          <DayField form={form("delivered")} label="Delivery date" min={data.mailedOn} max={data.today} />
        </IntentForm>
      ) : null}
      {data.intents.includes("returned") ? (
        <IntentForm intent="returned" title="The envelope came back to me" button="Record the return">
          <DayField form={form("returned")} label="Day it came back" min={data.mailedOn} max={data.today} />
        </IntentForm>
      ) : null}
      {data.intents.includes("left_out") ? (
        <IntentForm intent="left_out" title={`Leave ${r.name} out of this round`} button="Leave them out">
          <p>The proof of service states that they were not served in this round, with your reason.</p>
          <PlainField
            id="left_out-reason"
            name="reason"
            label="Reason"
            required
            maxLength={300}
            defaultValue={form("left_out").value("reason")}
            error={form("left_out").error("reason")}
          />
        </IntentForm>
      ) : null}
    </section>
  );
}

type Sent = {
  intent: string;
  value: (name: string) => string | undefined;
  error: (name: string) => string | null;
};

/** One thing to record, as a form of its own. */
function IntentForm({
  intent,
  title,
  button,
  children,
}: {
  intent: string;
  title: string;
  button: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" className="stack" aria-labelledby={`${intent}-title`}>
      <h2 id={`${intent}-title`}>{title}</h2>
      <input type="hidden" name="intent" value={intent} />
      {children}
      <SubmitButton>{button}</SubmitButton>
    </Form>
  );
}

/** A day, between the first one it may be and today. */
function DayField({ form, label, min, max }: { form: Sent; label: string; min: string | null; max: string }) {
  return (
    <PlainField
      id={`${form.intent}-day`}
      name="day"
      type="date"
      label={label}
      required
      min={min ?? undefined}
      max={max}
      defaultValue={form.value("day")}
      error={form.error("day")}
    />
  );
}
