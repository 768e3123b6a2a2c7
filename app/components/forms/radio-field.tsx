import type { InputHTMLAttributes, ReactNode } from "react";
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
        <RadioChoice
          key={choice.value}
          meta={meta}
          id={`${meta.id}-${index}`}
          value={choice.value}
          defaultChecked={choice.value === chosen}
        >
          {choice.label}
        </RadioChoice>
      ))}
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </fieldset>
  );
}

/** One radio button of a field's choices, with its label. */
export function RadioChoice({
  meta,
  id,
  children,
  ...input
}: { meta: Pick<Meta, "name" | "formId">; id: string; children: ReactNode } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "id" | "type" | "name" | "form" | "children"
>) {
  return (
    <div className="choice">
      <input type="radio" id={id} name={meta.name} form={meta.formId} {...input} />
      <label htmlFor={id}>{children}</label>
    </div>
  );
}
