import type { ReactNode } from "react";
import { ErrorList, type FieldMeta } from "./inputs";

type Meta = FieldMeta;

/**
 * A labelled set of radio buttons, one per choice: where a select would show its chosen words
 * cut on a phone, each choice's words here wrap whole.
 */
export function RadioField({
  meta,
  label,
  hint,
  choices,
}: {
  meta: Meta;
  label: string;
  hint?: ReactNode;
  choices: { value: string; label: ReactNode }[];
}) {
  const describedBy = [hint ? meta.descriptionId : null, meta.errors !== undefined ? meta.errorId : null]
    .filter(Boolean)
    .join(" ");
  const chosen = typeof meta.initialValue === "string" ? meta.initialValue : undefined;
  return (
    <fieldset aria-describedby={describedBy || undefined}>
      <legend>{label}</legend>
      {hint ? (
        <p id={meta.descriptionId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {choices.map((choice, index) => (
        <div className="choice" key={choice.value}>
          <input
            type="radio"
            id={`${meta.id}-${index}`}
            name={meta.name}
            form={meta.formId}
            value={choice.value}
            defaultChecked={choice.value === chosen}
          />
          <label htmlFor={`${meta.id}-${index}`}>{choice.label}</label>
        </div>
      ))}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}
