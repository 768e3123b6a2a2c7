import type { SerializeFrom } from "@remix-run/node";
import { Form, Link, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { Alert } from "~/components/ui/alert";
import { DataTable, type Column } from "~/components/ui/record-table";
import { SubmitButton } from "~/components/ui/submit-button";
import { ADDRESS_AUTOFILL, type TypedAddressPart } from "~/domain/mailing/autofill";
import { MAILING_STATE_WORDS } from "~/domain/mailing/state-words";
import type { mailPage } from "~/services/mailings/order.server";
import { IntentForm } from "~/components/ui/intent-form";
import { PlainField } from "~/components/forms/inputs";
import { formatDate, formatDateTime } from "~/lib/format";

export type MailData = SerializeFrom<Awaited<ReturnType<typeof mailPage>>>;
type Draft = Extract<MailData, { recipients: unknown }>;
type Letter = Draft["letters"][number];
type Result = {
  error: string;
  from: { parts: Record<string, string | undefined>; errors: Record<string, string> } | null;
};

/** "Mail it for me": the round's letters addressed, checked, paid, then followed. */
export function MailPage({ data, result }: { data: MailData; result?: Result }) {
  return (
    <section className="card" aria-labelledby="mail-title">
      <p>
        <Link to={data.versionHref}>
          {data.causeName} · {data.version}
        </Link>
      </p>
      <h1 id="mail-title">Mail it for me{data.roundName ? `: ${data.roundName}` : ""}</h1>
      {result?.error ? <Alert kind="error">{result.error}</Alert> : null}
      {"recipients" in data ? (
        <Order data={data} result={result} />
      ) : (
        <Closed next={data.next} href={data.versionHref} />
      )}
    </section>
  );
}

function Closed({ next, href }: { next: string; href: string }) {
  return (
    <p>
      Letters are mailed from a round's mailing step; this version's next step is {next}.{" "}
      <Link to={href}>Back to the version</Link>
    </p>
  );
}

function Order({ data, result }: { data: Draft; result?: Result }) {
  return (
    <>
      {data.stage === "draft" ? <DraftForms data={data} result={result} /> : null}
      {data.stage === "paying" ? <Paying data={data} /> : null}
      {data.stage === "paid" ? <Sending /> : null}
      {data.stage === "closed" && data.letters.length === 0 ? (
        <Closed next={data.next} href={data.versionHref} />
      ) : null}
      {data.letters.length > 0 ? <Letters letters={data.letters} trackingBase={data.trackingUrl} /> : null}
      <p>
        <Link to={data.versionHref}>Back to the version</Link>
      </p>
    </>
  );
}

/** The first step: the member signs the notice the letters carry; nothing is paid for before. */
function SignStep({ sign }: { sign: NonNullable<Draft["sign"]> }) {
  return (
    <section className="mail-sign" aria-labelledby="sign-step-title">
      <h2 id="sign-step-title">1. Sign the notice</h2>
      {sign.signed ? (
        <p>
          <strong>{sign.signed}.</strong> Your signature is printed on each letter.{" "}
          <Link to={sign.href}>Sign again</Link>
        </p>
      ) : (
        <p>
          Each letter carries your signature: sign the notice once, typed or drawn, before it is mailed.{" "}
          <Link to={sign.href}>Sign the notice</Link>
        </p>
      )}
    </section>
  );
}

function DraftForms({ data, result }: { data: Draft; result?: Result }) {
  const from = result?.from ?? { parts: data.sender.parts, errors: {} };
  return (
    <>
      {data.sign ? <SignStep sign={data.sign} /> : null}
      {data.again ? (
        <p>
          <strong>Mailing again:</strong> these respondents have not been served yet (their letter was cancelled, came
          back or was not sent). Each gets a new letter in an order of its own; the letters before stay in the round's
          record, listed below.
        </p>
      ) : null}
      <p>
        Each respondent gets the notice in an envelope of its own, by USPS Certified Mail with an electronic return
        receipt. The addresses are checked against USPS's records first: nothing is sent to an address you have not
        confirmed.{" "}
        {data.noticeHref ? (
          <a href={data.noticeHref} download>
            Download the letters (PDF)
          </a>
        ) : null}
      </p>
      <Form method="post" className="form" aria-labelledby="addresses-title">
        <h2 id="addresses-title">2. The addresses</h2>
        <fieldset>
          <legend>Your return address</legend>
          {data.sender.fixed ? (
            <address>
              {data.sender.fixed.map((line) => (
                <span key={line}>
                  {line}
                  <br />
                </span>
              ))}
            </address>
          ) : (
            <AddressFields prefix="from" parts={from.parts} errors={from.errors} />
          )}
        </fieldset>
        {data.recipients.map((r) => (
          <fieldset key={r.slot} aria-describedby={r.verdictText ? `verdict-${r.slot}` : undefined}>
            <legend>
              Respondent {r.slot}: {r.respondent}
            </legend>
            <div className="checkbox">
              <input id={`send-${r.slot}`} type="checkbox" name={`send.${r.slot}`} defaultChecked={r.send} />
              <label htmlFor={`send-${r.slot}`}>Mail the notice to this respondent</label>
            </div>
            <AddressFields prefix={`to.${r.slot}`} parts={r.parts} errors={r.errors} />
            {r.verdictText ? (
              <p id={`verdict-${r.slot}`} className={r.blocker ? "field-error" : undefined}>
                {r.verdictText} {r.suggestion ? <strong>{r.suggestion.join(", ")}</strong> : null}
              </p>
            ) : null}
          </fieldset>
        ))}
        <SubmitButton name="intent" value="check" pendingText="Checking with USPS…">
          Check the addresses
        </SubmitButton>
      </Form>
      {data.ready && data.quote ? (
        data.sign?.signed ? (
          <ConfirmForm data={data} quote={data.quote} />
        ) : (
          <p>The addresses are ready: sign the notice (step 1), then confirm them and pay here.</p>
        )
      ) : null}
    </>
  );
}

/** Each part's label, in the order an envelope writes them. */
const PART_LABELS: Record<TypedAddressPart, string> = {
  name: "Name",
  line1: "Street address",
  line2: "Apartment, suite, unit (optional)",
  city: "City",
  state: "State (two letters)",
  zip: "ZIP code",
};

function AddressFields({
  prefix,
  parts,
  errors,
}: {
  prefix: string;
  parts: Record<string, string | undefined>;
  errors: Record<string, string | undefined>;
}) {
  const id = (part: string) => `${prefix.replace(".", "-")}-${part}`;
  return (
    <div className="address-fields">
      {(Object.entries(PART_LABELS) as [TypedAddressPart, string][]).map(([part, label]) => (
        <PlainField
          key={part}
          id={id(part)}
          label={label}
          name={`${prefix}.${part}`}
          defaultValue={parts[part] ?? ""}
          autoComplete={prefix === "from" ? ADDRESS_AUTOFILL[part] : "off"}
          error={errors[part]}
        />
      ))}
    </div>
  );
}

function ConfirmForm({ data, quote }: { data: Draft; quote: NonNullable<Draft["quote"]> }) {
  const chosen = data.recipients.filter((r) => r.send);
  return (
    <Form method="post" className="form" aria-labelledby="confirm-title">
      <h2 id="confirm-title">3. Confirm and pay</h2>
      <input type="hidden" name="attempt" value={data.attempt} />
      {chosen.map((r) => (
        <fieldset key={r.slot}>
          <legend>{r.respondent}</legend>
          {r.suggestion && r.typedLines ? (
            <>
              <div className="checkbox">
                <input id={`use-usps-${r.slot}`} type="radio" name={`use.${r.slot}`} value="usps" defaultChecked />
                <label htmlFor={`use-usps-${r.slot}`}>USPS's address: {r.suggestion.join(", ")}</label>
              </div>
              <div className="checkbox">
                <input id={`use-typed-${r.slot}`} type="radio" name={`use.${r.slot}`} value="typed" />
                <label htmlFor={`use-typed-${r.slot}`}>The address as I typed it: {r.typedLines.join(", ")}</label>
              </div>
            </>
          ) : (
            <p>{r.typedLines?.join(", ")}</p>
          )}
          <div className="checkbox">
            <input id={`confirm-${r.slot}`} type="checkbox" name={`confirm.${r.slot}`} required />
            <label htmlFor={`confirm-${r.slot}`}>Mail the letter to {r.respondent} at this address</label>
          </div>
        </fieldset>
      ))}
      <DataTable
        rows={quote.lines.map((line, i) => ({ ...line, id: i, price: quote.each }))}
        columns={PRICE_COLUMNS}
        caption="The price"
      />
      <p>
        <strong>In all:</strong> {quote.words}
      </p>
      <SubmitButton name="intent" value="pay" pendingText="Starting the payment…">
        {quote.free ? "Mail the letters" : `Pay ${quote.total} and mail`}
      </SubmitButton>
    </Form>
  );
}

type PriceLine = NonNullable<Draft["quote"]>["lines"][number] & { id: number; price: string };
const PRICE_COLUMNS: Column<PriceLine>[] = [
  { header: "Envelope to", rowHeader: true, cell: (line) => line.recipient },
  { header: "Service", cell: (line) => line.service },
  { header: "Price", cell: (line) => line.price },
];

function Paying({ data }: { data: Draft }) {
  return (
    <>
      {data.paymentFailed ? <Alert kind="error">{data.paymentFailed}</Alert> : null}
      <p>Your payment for these letters is not finished: nothing is mailed until it is.</p>
      {data.payHref ? (
        <p>
          <Link className="button button-primary" to={data.payHref} reloadDocument>
            Continue to payment
          </Link>
        </p>
      ) : null}
      <IntentForm intent="change" className="button" pendingText="Opening…">
        Change the addresses
      </IntentForm>
    </>
  );
}

/** Paid, its letters on their way to the mail house: the page looks again every few seconds. */
function Sending() {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => state === "idle" && revalidate(), 3000);
    return () => clearInterval(timer);
  }, [revalidate, state]);
  return (
    <p role="status" aria-live="polite">
      Paid. Your letters are being sent to the mail house; their tracking numbers show here in a moment.{" "}
      <a href="">Refresh</a>
    </p>
  );
}

function letterColumns(trackingBase: string, cancellable: boolean): Column<Letter>[] {
  const columns: Column<Letter>[] = [
    {
      header: "To",
      rowHeader: true,
      cell: (letter) => (letter.envelope > 1 ? `${letter.to} (mailed again)` : letter.to),
    },
    {
      header: "Where it is",
      cell: (letter) => (
        <>
          {MAILING_STATE_WORDS[letter.state]}
          {letter.reason ? `: ${letter.reason}` : ""}
          <br />
          <span className="field-hint">{letterDates(letter)}</span>
        </>
      ),
    },
    {
      header: "Tracking number",
      cell: (letter) =>
        letter.trackingNumber ? (
          <a
            className="tracking-number"
            href={`${trackingBase}${encodeURIComponent(letter.trackingNumber)}`}
            rel="noreferrer"
            target="_blank"
          >
            {letter.trackingNumber}
          </a>
        ) : (
          "—"
        ),
    },
    { header: "Price", cell: (letter) => `${letter.cost}${letter.refunded ? " (refunded)" : ""}` },
  ];
  if (!cancellable) return columns;
  return [
    ...columns,
    {
      header: "Cancel",
      cell: (letter) =>
        letter.cancelUntil ? (
          <Form method="post" className="letter-cancel">
            <input type="hidden" name="mailing" value={letter.id} />
            <SubmitButton
              name="intent"
              value="cancel"
              className="button"
              pendingText="Cancelling…"
              aria-label={`Cancel the letter to ${letter.to}`}
            >
              Cancel
            </SubmitButton>
            <span className="field-hint">until {formatDateTime(letter.cancelUntil)}</span>
          </Form>
        ) : (
          (letter.cancelRefusal ?? "—")
        ),
    },
  ];
}

function Letters({ letters, trackingBase }: { letters: Letter[]; trackingBase: string }) {
  const cancellable = letters.some((letter) => letter.cancelUntil !== null);
  return (
    <>
      <DataTable rows={letters} columns={letterColumns(trackingBase, cancellable)} caption="The letters" />
      {cancellable ? (
        <p className="field-hint">
          A letter can be cancelled, its price refunded to your card, until the mail house prints it (a few minutes
          after it was paid for).
        </p>
      ) : null}
    </>
  );
}

function letterDates(letter: Letter): string {
  const dates = [
    letter.mailedOn ? `mailed ${formatDate(letter.mailedOn)}` : null,
    letter.deliveredOn ? `delivered ${formatDate(letter.deliveredOn)}` : null,
    letter.returnedOn ? `returned ${formatDate(letter.returnedOn)}` : null,
    !letter.deliveredOn && !letter.returnedOn && letter.expectedDeliveryOn && letter.state !== "cancelled"
      ? `expected to arrive ${formatDate(letter.expectedDeliveryOn)}`
      : null,
  ].filter(Boolean);
  return dates.length > 0 ? dates.join(", ") : "";
}
