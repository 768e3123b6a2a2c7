import type { SubmissionResult } from "@conform-to/react";
import { Link, useFetcher } from "@remix-run/react";
import { PasskeyField } from "~/components/factors/passkey-button";
import { useEffect, useState } from "react";
import { DeviceKeyField } from "~/components/device-key-field";
import { Field, useServerForm } from "~/components/forms/inputs";
import { SubmitButton } from "~/components/ui/submit-button";
import { PASSWORD_MAX } from "~/domain/account-text";
import { safeRedirectPath } from "~/domain/guard";
import { inFrame } from "~/lib/state-store";
import { FormCard } from "./card";

/** spec §2.3: the after-login path is also kept in local storage (not inside a frame), so a later visit to /login still goes back there. */
function useRememberedTarget(redirectTo: string | null) {
  const [target, setTarget] = useState(redirectTo);
  useEffect(() => {
    if (inFrame()) return;
    if (redirectTo) {
      window.localStorage.setItem("afterLogin", redirectTo);
      return;
    }
    // A stored value may come from an older build or another script: only a same-site path is kept.
    const stored = safeRedirectPath(window.localStorage.getItem("afterLogin"), "");
    if (stored) setTarget(stored);
    else window.localStorage.removeItem("afterLogin");
  }, [redirectTo]);
  return target;
}

export function LoginForm({
  redirectTo,
  lastResult,
}: {
  redirectTo: string | null;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const target = useRememberedTarget(redirectTo);
  const [form, fields] = useServerForm<{ login: string; password: string }>({ lastResult });
  return (
    <FormCard
      id="login-title"
      title="Log in"
      form={form}
      honeypot
      submit={<SubmitButton pendingText="Logging in…">Log in</SubmitButton>}
      after={
        <>
          <PasskeySignIn redirectTo={target} />
          <p className="muted">
            <Link to="/login/help">Forgot your password?</Link> · New here? <Link to="/signup">Sign up</Link>
          </p>
        </>
      }
    >
      <Field meta={fields.login} label="Username or e-mail address" autoComplete="username" required maxLength={254} />
      <Field
        meta={fields.password}
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        maxLength={PASSWORD_MAX * 4}
      />
      {target ? <input type="hidden" name="redirectTo" value={target} /> : null}
      <DeviceKeyField />
    </FormCard>
  );
}

/**
 * Signing in with a passkey alone: shown where the browser can use passkeys (JavaScript), sent
 * beside the page by a fetcher so a refusal is shown here and a sign-in moves on.
 */
export function PasskeySignIn({ redirectTo }: { redirectTo: string | null }) {
  const fetcher = useFetcher<{ error?: string }>();
  return (
    <fetcher.Form method="post" action="/login/passkey" className="passkey-sign-in">
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <DeviceKeyField />
      <PasskeyField name="passkey" optionsUrl="/login/passkey" optionsFields={{ intent: "options" }} className="button">
        Sign in with a passkey
      </PasskeyField>
      {fetcher.data?.error ? (
        <p className="field-error" role="alert">
          {fetcher.data.error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
