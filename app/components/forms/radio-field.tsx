import type { ReactNode } from "react";
import { ErrorList, fieldView } from "./inputs";

type Meta = Parameters<typeof fieldView>[0];

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
  const view = fieldView(meta);
  const describedBy = [hint ? view.descriptionId : null, view.errors !== undefined ? view.errorId : null]
    .filter(Boolean)
    .join(" ");
  const chosen = typeof view.initialValue === "string" ? view.initialValue : undefined;
  return (
    <fieldset aria-describedby={describedBy || undefined}>
      <legend>{label}</legend>
      {hint ? (
        <p id={view.descriptionId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {choices.map((choice, index) => (
        <div className="choice" key={choice.value}>
          <input
            type="radio"
            id={`${view.id}-${index}`}
            name={view.name}
            form={view.formId}
            value={choice.value}
            defaultChecked={choice.value === chosen}
          />
          <label htmlFor={`${view.id}-${index}`}>{choice.label}</label>
        </div>
      ))}
      <ErrorList id={view.errorId} errors={view.errors} />
    </fieldset>
  );
}
