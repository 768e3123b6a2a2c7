import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { lazy, Suspense, useEffect, useState } from "react";

// The field names of ~/domain/second-factor-words, written here so this small module stays one chunk.
const STEP_UP_CODE = "stepUpCode";
const STEP_UP_PASSKEY = "stepUpPasskey";
const PasskeyButton = lazy(() => import("./passkey-button"));

/** What an action refused for want of a fresh second factor answers (factors/step-up.server.ts). */
type StepUpData = {
  stepUp: {
    label: string;
    /** Where the refused form was posted, and its own fields, posted again with the factor. */
    postTo: string;
    fields: [string, string][];
    error: string | null;
    methods: { passkey: boolean; code: boolean };
  };
};

/**
 * The error boundary of a page with sensitive actions: in the place of the page, a step-up
 * prompt, one plain form that posts the action's own fields again with a code or a passkey's
 * answer, so the action goes on; any other error goes to the root's page. Kept small: every
 * page with such an action carries it.
 */
export function StepUpBoundary() {
  const error = useRouteError();
  const [running, setRunning] = useState(false);
  useEffect(() => setRunning(true), []);
  const data = isRouteErrorResponse(error) ? (error.data as Partial<StepUpData> | null) : null;
  if (!data?.stepUp) throw error;
  const { label, postTo, fields, error: problem, methods } = data.stepUp;
  return (
    <section className="card" aria-labelledby="step-up-title">
      <h1 id="step-up-title">Confirm it is you</h1>
      <p className="lead">Use your second factor to {label}.</p>
      <form method="post" action={postTo} className="form">
        {fields.map(([name, value], index) => (
          <input key={index} type="hidden" name={name} value={value} />
        ))}
        {methods.passkey ? (
          <>
            <input type="hidden" name={STEP_UP_PASSKEY} defaultValue="" />
            {running ? (
              <Suspense fallback={null}>
                <PasskeyButton
                  name={STEP_UP_PASSKEY}
                  optionsUrl="/profile/security/passkey"
                  optionsFields={{ intent: "factor-options" }}
                >
                  Use your passkey
                </PasskeyButton>
              </Suspense>
            ) : null}
          </>
        ) : null}
        {problem ? (
          <p id="step-up-error" className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
        {methods.code ? (
          <div className="field">
            <label htmlFor="step-up-code">Code from your authenticator app, or a recovery code</label>
            <input
              id="step-up-code"
              name={STEP_UP_CODE}
              autoComplete="one-time-code"
              autoCapitalize="none"
              spellCheck={false}
              maxLength={40}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? "step-up-error" : undefined}
            />
            <button type="submit" className="button button-primary">
              Confirm and go on
            </button>
          </div>
        ) : null}
      </form>
    </section>
  );
}
