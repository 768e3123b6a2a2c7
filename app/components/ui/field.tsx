import { useId, type InputHTMLAttributes, type ReactNode } from "react";

type FieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  name: string;
  errors?: string[];
  hint?: ReactNode;
};

/** A labelled input with its hint and errors tied to it for screen readers. */
export function Field({ label, name, errors, hint, id, ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? `${name}-${generated}`;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = errors?.length ? `${inputId}-error` : undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      {hint ? (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      ) : null}
      <input
        id={inputId}
        name={name}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ") || undefined}
        {...input}
      />
      {errorId ? (
        <p id={errorId} className="field-error">
          {errors!.join(" ")}
        </p>
      ) : null}
    </div>
  );
}
