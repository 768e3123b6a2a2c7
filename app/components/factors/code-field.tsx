import { Link } from "@remix-run/react";

/**
 * The field of a typed code (six digits from an app, or a recovery code): at sign-in, before a
 * sensitive action, and to set up an authenticator app.
 */
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

/** The way back from a page of the security settings. */
export function BackToSecurity() {
  return (
    <p className="muted">
      <Link to="/profile/security">Back to security</Link>
    </p>
  );
}
