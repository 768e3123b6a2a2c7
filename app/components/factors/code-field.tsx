import { Link } from "@remix-run/react";
import { PlainField } from "~/components/forms/inputs";

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
  return (
    <PlainField
      id={`${name}-field`}
      label={label}
      hint={hint}
      error={error}
      name={name}
      type="text"
      inputMode="text"
      autoComplete="one-time-code"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={40}
      autoFocus={autoFocus}
    />
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
