import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { ExpiredLink } from "~/components/expired-link";
import { Field, useSchemaForm } from "~/components/forms/fields";
import { SubmitButton } from "~/components/ui/submit-button";
import { INVITATION_TTL_DAYS, PASSWORD_HINT } from "~/domain/account-text";
import { Card, FormCard } from "./card";
import { OutboxNote } from "./outbox-note";

const backToLogin = (
  <p className="muted">
    <Link to="/login">Back to login</Link>
  </p>
);

/** /login/help: the form that asks for a new-password link. */
export function LoginHelpForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useSchemaForm(() => import("~/domain/account").then((m) => m.resetRequestSchema), {
    lastResult,
  });
  return (
    <FormCard
      id="help-title"
      title="Login help"
      lead="Enter the e-mail address of your account and we will send you a link to set a new password."
      form={form}
      honeypot
      submit={<SubmitButton pendingText="Sending…">Send the link</SubmitButton>}
      after={backToLogin}
    >
      <Field meta={fields.email} label="E-mail address" type="email" autoComplete="email" />
    </FormCard>
  );
}

/** The same answer whether or not an account uses the address: it tells an outsider nothing. */
export function ResetLinkSent({ email }: { email: string }) {
  return (
    <Card id="help-title" title="Check your e-mail">
      <p>
        If an account uses <strong>{email}</strong>, we have sent it a link to set a new password. The link works once,
        for one hour.
      </p>
      <OutboxNote />
      {backToLogin}
    </Card>
  );
}

/** /login/reset?token=…: the new password, or the way to a new link when this one is spent. */
export function ResetPasswordForm({
  token,
  lastResult,
  welcome = false,
}: {
  token: string | null;
  lastResult: SubmissionResult<string[]> | undefined;
  /** An invitation's link: the member chooses their first password. */
  welcome?: boolean;
}) {
  const [form, fields] = useSchemaForm(() => import("~/domain/account").then((m) => m.resetPasswordSchema), {
    lastResult,
  });
  if (!token) {
    return (
      <ExpiredLink
        explanation={
          welcome
            ? `An invitation's link works once, for ${INVITATION_TTL_DAYS} days. Ask for a password link with your e-mail address.`
            : "A password link works once, for one hour. Ask for a new one."
        }
        to="/login/help"
        action="Get a new link"
      />
    );
  }
  return (
    <FormCard
      id="reset-title"
      title={welcome ? "Choose your password" : "Set a new password"}
      form={form}
      submit={
        <SubmitButton pendingText="Saving…">{welcome ? "Save my password" : "Save the new password"}</SubmitButton>
      }
    >
      <input type="hidden" name="token" value={token} />
      <Field
        meta={fields.password}
        label={welcome ? "Password" : "New password"}
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_HINT}
      />
      <Field
        meta={fields.confirm}
        label={welcome ? "Password again" : "New password again"}
        type="password"
        autoComplete="new-password"
      />
    </FormCard>
  );
}
