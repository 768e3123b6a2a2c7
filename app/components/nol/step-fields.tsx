import { CheckboxField, Field, SelectField, TextareaField, type FieldMeta } from "~/components/forms/fields";
import { RESPONDENT_TYPES, trackingField, type BillLine } from "~/domain/nol/billing";
import type { StepData } from "./step-page";

type Fields = Record<string, FieldMeta>;

const TRACKING_HINT = "USPS: 20 to 22 digits, or 2 letters, 9 digits and US. Spaces and dashes are fine.";

/** The fields of a step's form, by the step's kind (the schema is `stepSchema` in domain/nol/step-form). */
export function StepFields({ data, fields }: { data: StepData; fields: Fields }) {
  switch (data.step.kind) {
    case "notice":
      return (
        <>
          <Field meta={fields.claimantName!} label="Claimant's name" />
          <TextareaField
            meta={fields.claimantAddress!}
            label="Claimant's mailing address (optional)"
            hint="The return address on each letter, in lines as on an envelope. Left empty, the letters leave a line to write it on."
            rows={3}
            autoComplete="street-address"
          />
          <Field meta={fields.dailyAmount!} label="Daily amount (USD)" inputMode="decimal" />
          <fieldset>
            <legend>Respondents (slots 1 to {data.slots})</legend>
            {Array.from({ length: data.slots }, (_, i) => i + 1).map((slot) => (
              <div className="respondent" key={slot}>
                <Field meta={fields[`r${slot}Name`]!} label={`Respondent ${slot}`} />
                <SelectField meta={fields[`r${slot}Type`]!} label={`Type of respondent ${slot}`}>
                  {RESPONDENT_TYPES.map((t) => (
                    <option key={t}>{t}</option>
                  ))}
                </SelectField>
                <Field meta={fields[`r${slot}Address`]!} label={`Mailing address of respondent ${slot} (optional)`} />
              </div>
            ))}
          </fieldset>
        </>
      );
    case "mailing":
    case "true-bill-mailing":
      return (
        <>
          <Field meta={fields.mailingDate!} label="Mailing date" type="date" />
          {data.checks.recipients?.length ? (
            <fieldset>
              <legend>Tracking numbers, one for each respondent's envelope</legend>
              <p className="field-hint">{TRACKING_HINT}</p>
              {data.checks.recipients.map((recipient) => (
                <Field
                  key={recipient.slot}
                  meta={fields[trackingField(recipient.slot)]!}
                  label={`Tracking number for ${recipient.name}`}
                  autoComplete="off"
                />
              ))}
            </fieldset>
          ) : (
            <Field meta={fields.trackingNumber!} label="Tracking number" hint={TRACKING_HINT} autoComplete="off" />
          )}
        </>
      );
    case "proof":
    case "true-bill-proof":
      return (
        <>
          <CheckboxField meta={fields.delivered!} label="The proof of delivery has arrived" />
          <Field
            meta={fields.deliveredOn!}
            label="Delivery date"
            type="date"
            hint="The day the tracking page gives for the delivery: the respondents' time to answer counts from it."
            max={data.checks.today}
            min={data.checks.mailedOn ?? undefined}
          />
        </>
      );
    case "setup-billing":
      return <Field meta={fields.dailyAmount!} label="Daily amount (USD)" inputMode="decimal" />;
    case "true-bill":
      return (
        <>
          <Field meta={fields.preparationDate!} label="Preparation date" type="date" />
          <Field meta={fields.administrativeJudgment!} label="Administrative judgment (USD)" inputMode="decimal" />
          {data.escalationFee ? (
            <p className="muted">An escalation fee of 20% of the prior judgment ({data.escalationFee}) is added.</p>
          ) : null}
          <BillRespondents lines={data.billLines} />
        </>
      );
  }
}

const NOT_BILLED = {
  ended: "no longer billed: billing was stopped on an earlier true bill",
  "joinder-skip": "not billed on this true bill: Joinder respondents skip it",
} as const;

/** The respondents of a true bill: who it bills, with their continue and status flags. */
function BillRespondents({ lines }: { lines: BillLine[] }) {
  if (lines.length === 0) return null;
  return (
    <fieldset className="bill-respondents">
      <legend>Respondents on this true bill</legend>
      <ul>
        {lines.map((line) => (
          <li key={line.slot} data-testid={`bill-respondent-${line.slot}`}>
            <strong>{line.name}</strong> <span className="muted">({line.type})</span>
            {line.billed ? (
              <div className="checks">
                <label>
                  <input type="checkbox" name={`status${line.slot}`} defaultChecked /> Still liable
                </label>
                <label>
                  <input type="checkbox" name={`continue${line.slot}`} defaultChecked /> Bill again on the next true
                  bill
                </label>
              </div>
            ) : (
              <span> — {NOT_BILLED[line.reason!]}</span>
            )}
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
