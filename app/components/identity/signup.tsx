import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { DeviceKeyField } from "~/components/device-key-field";
import { CheckboxField, Field, useServerForm } from "~/components/forms/inputs";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import { PASSWORD_HINT, USERNAME_RULE } from "~/domain/account-text";
import { Card, FormCard } from "./card";
import { OutboxNote } from "./outbox-note";

export function SignupForm({
  lastResult,
  email,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  /** The e-mail of a payment made before signing up. */
  email?: string | null;
}) {
  const [form, fields] = useServerForm<{ username: string; email: string; password: string; acceptTerms: string }>({
    lastResult,
    defaultValue: email ? { email } : undefined,
  });
  return (
    <FormCard
      id="signup-title"
      title="Sign up"
      lead="Create your account. Next you will tell us a little about yourself and choose your membership."
      form={form}
      honeypot
      submit={<SubmitButton pendingText="Creating your account…">Sign up</SubmitButton>}
      after={
        <p className="muted">
          Already a member? <Link to="/login">Log in</Link>
        </p>
      }
    >
      <Field
        meta={fields.username}
        label="Username"
        autoComplete="username"
        hint={`${USERNAME_RULE}. It cannot be changed later.`}
      />
      <Field meta={fields.email} label="E-mail address" type="email" autoComplete="email" />
      <Field meta={fields.password} label="Password" type="password" autoComplete="new-password" hint={PASSWORD_HINT} />
      <CheckboxField
        meta={fields.acceptTerms}
        label={
          <>
            I accept the <Link to="/signup/terms">Terms of Service</Link> and the{" "}
            <Link to="/signup/privacy-policy">Privacy Policy</Link>
          </>
        }
      />
      <DeviceKeyField />
    </FormCard>
  );
}

/** /signup/check-email: the address the link went to, and a button for another link. */
export function CheckEmail({ email, verified, resent }: { email: string; verified: boolean; resent?: boolean }) {
  return (
    <Card id="check-title" title={verified ? "Your e-mail address is confirmed" : "Check your e-mail"}>
      {verified ? (
        <p>Thank you. Continue with your setup.</p>
      ) : (
        <p>
          We sent a link to <strong>{email}</strong>. Open it to confirm your address; meanwhile you can go on with your
          setup.
        </p>
      )}
      {verified ? null : <OutboxNote />}
      {resent === undefined ? null : resent ? (
        <Alert kind="success">We sent a new link.</Alert>
      ) : (
        <Alert kind="warn">We have sent several links in the last hour; wait a while before asking again.</Alert>
      )}
      <div className="actions">
        <Link className="button button-primary" to="/setup">
          Continue to setup
        </Link>
        {verified ? null : (
          <Form method="post">
            <SubmitButton className="button" pendingText="Sending…">
              Send the link again
            </SubmitButton>
          </Form>
        )}
      </div>
    </Card>
  );
}
