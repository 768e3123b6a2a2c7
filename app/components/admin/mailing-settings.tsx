import { Form } from "@remix-run/react";
import { PlainField } from "~/components/forms/inputs";
import { SubmitButton } from "~/components/ui/submit-button";
import { ADDRESS_AUTOFILL, type TypedAddressPart } from "~/domain/mailing/autofill";

export type MailingSettingsValues = {
  perEnvelope: string;
  returnLine1: string;
  returnLine2: string;
  returnCity: string;
  returnState: string;
  returnZip: string;
  lostAfterDays: string;
};

type SettingField = { name: keyof MailingSettingsValues; label: string; type?: string; autoComplete?: string };

/** A part of the return address: its setting, and its words after "Return address:". */
const returnPart = (name: keyof MailingSettingsValues, part: TypedAddressPart, words: string): SettingField => ({
  name,
  label: `Return address: ${words}`,
  autoComplete: ADDRESS_AUTOFILL[part],
});

const FIELDS: SettingField[] = [
  { name: "perEnvelope", label: "Price per envelope (USD; 0 when the community pays)", type: "text" },
  returnPart("returnLine1", "line1", "street"),
  returnPart("returnLine2", "line2", "suite or unit (optional)"),
  returnPart("returnCity", "city", "city"),
  returnPart("returnState", "state", "state (two letters)"),
  returnPart("returnZip", "zip", "ZIP code"),
  { name: "lostAfterDays", label: "Days without news before a letter counts as lost", type: "number" },
];

/** /admin/settings' second form: what members pay per envelope, the letters' return address, when a letter is lost. */
export function MailingSettingsForm({
  values,
  errors = {},
}: {
  values: MailingSettingsValues;
  errors?: Partial<Record<string, string>>;
}) {
  return (
    <section aria-labelledby="mailing-settings-title">
      <h2 id="mailing-settings-title">Mailing from the app</h2>
      <p>
        Members pay the price per envelope when they have a round mailed by Certified Mail. Leave the return address
        empty to send each member&apos;s letters from their own address; with one, every letter carries the
        member&apos;s name at the community&apos;s address.
      </p>
      <Form method="post" action="?form=mailing" className="form" aria-labelledby="mailing-settings-title">
        <input type="hidden" name="intent" value="mailing" />
        {FIELDS.map((field) => (
          <PlainField
            key={field.name}
            id={`mailing-${field.name}`}
            label={field.label}
            name={field.name}
            type={field.type ?? "text"}
            defaultValue={values[field.name]}
            autoComplete={field.autoComplete ?? "off"}
            error={errors[field.name]}
          />
        ))}
        <SubmitButton pendingText="Saving…">Save the mailing settings</SubmitButton>
      </Form>
    </section>
  );
}
