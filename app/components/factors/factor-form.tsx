import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { SubmitButton } from "~/components/ui/submit-button";
import { CodeField } from "./code-field";
import { PasskeyField } from "./passkey-button";

/**
 * The forms of a second factor: a code typed from an authenticator app (or a recovery code),
 * and a passkey, which needs JavaScript and fills a hidden field of the same form before
 * sending it. Used at sign-in, before a sensitive action, and on the security page.
 */

export type FactorMethods = { passkey: boolean; code: boolean };

/**
 * One form that passes a factor: a passkey (when the member has one and the browser can), or
 * a typed code. `hidden` carries what the form posts besides (an action's own fields). Both
 * ways are one form, so what goes with them (remember this device) is asked once.
 */
export function FactorForm({
  action,
  methods,
  hidden,
  codeName,
  passkeyName,
  passkeyOptions,
  error,
  submitLabel,
  extra,
}: {
  action: string;
  methods: FactorMethods;
  hidden: [string, string][];
  codeName: string;
  passkeyName: string;
  passkeyOptions: { url: string; fields: Record<string, string> };
  error: string | null;
  submitLabel: string;
  /** Fields sent with either way (remember this device), shown before them. */
  extra?: ReactNode;
}) {
  if (!methods.passkey && !methods.code) {
    return (
      <p>
        You have no way left to pass your second factor here. Ask an admin of the community to reset your second
        factors.
      </p>
    );
  }
  return (
    <>
      {error && !methods.code ? (
        <p className="alert alert-error" role="alert">
          {error}
        </p>
      ) : null}
      <Form method="post" action={action} className="form">
        {hidden.map(([name, value], index) => (
          <input key={`${name}-${index}`} type="hidden" name={name} value={value} />
        ))}
        {extra}
        {methods.passkey ? (
          <PasskeyField name={passkeyName} optionsUrl={passkeyOptions.url} optionsFields={passkeyOptions.fields}>
            Use your passkey
          </PasskeyField>
        ) : null}
        {methods.code ? (
          <>
            <CodeField name={codeName} error={error} autoFocus={!methods.passkey} />
            <div className="actions">
              <SubmitButton pendingText="Checking…">{submitLabel}</SubmitButton>
            </div>
          </>
        ) : null}
      </Form>
    </>
  );
}
