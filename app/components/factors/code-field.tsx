/** The field of a typed code, used at sign-in, before a sensitive action, and to set up an authenticator app. */
/** Six digits from an app, or a recovery code. */
export function CodeField({
  name,
  error,
  label = "Code from your authenticator app, or a recovery code",
  hint = "A recovery code looks like k7m2q-x9p3d; each works once.",
  autoFocus = false,
}: {
  name: string;
  error?: string | null;
  label?: string;
  hint?: string;
  autoFocus?: boolean;
}) {
  const id = `${name}-field`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="text"
        inputMode="text"
        autoComplete="one-time-code"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={40}
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
      />
      <p id={`${id}-hint`} className="hint">
        {hint}
      </p>
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
