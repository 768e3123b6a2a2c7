import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { Field, FormErrors, formProps, Honeypot, useSchemaForm } from "~/components/forms/fields";
import { Alert } from "~/components/ui/alert";
import { ConfirmButton } from "~/components/ui/confirm-button";
import { SubmitButton } from "~/components/ui/submit-button";
import { Card } from "./card";

export type NewsletterDone = "sent" | "confirmed" | "unsubscribed" | "expired";

const MESSAGES = {
  sent: { kind: "success", text: "Check your e-mail: open the link we sent to confirm your subscription." },
  confirmed: { kind: "success", text: "Thank you: you will receive our newsletter." },
  unsubscribed: { kind: "success", text: "You will not receive our newsletter any more." },
  expired: { kind: "warn", text: "This link does not work any more. Subscribe again to get a new one." },
} as const;

/** A button that sends one intent with the token of an e-mailed link. */
function TokenButton({ intent, token, children }: { intent: string; token: string; children: ReactNode }) {
  return (
    <Form method="post" className="actions">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="token" value={token} />
      {children}
    </Form>
  );
}

/** /newsletter-subscribe: the subscribe form, or the button of the link that led here, or what was done. */
export function NewsletterView({
  email,
  confirm,
  unsubscribe,
  done,
  lastResult,
}: {
  email: string;
  confirm: string | null;
  unsubscribe: string | null;
  done: NewsletterDone | undefined;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useSchemaForm(() => import("~/domain/contact").then((m) => m.newsletterSchema), {
    lastResult,
    defaultValue: { email },
  });
  const message = done ? MESSAGES[done] : null;
  return (
    <Card id="newsletter-title" title="Newsletter">
      {message ? <Alert kind={message.kind}>{message.text}</Alert> : null}
      <FormErrors form={form} />
      {!message && confirm ? (
        <TokenButton intent="confirm" token={confirm}>
          <SubmitButton pendingText="Confirming…">Confirm my subscription</SubmitButton>
        </TokenButton>
      ) : null}
      {!message && unsubscribe ? (
        <TokenButton intent="unsubscribe" token={unsubscribe}>
          <ConfirmButton>Stop the newsletter</ConfirmButton>
        </TokenButton>
      ) : null}
      {!message && !confirm && !unsubscribe ? (
        <>
          <p className="lead">News of the community, now and then. You can stop it at any time.</p>
          <Form method="post" className="form" {...formProps(form)}>
            <input type="hidden" name="intent" value="subscribe" />
            <Field meta={fields.email} label="E-mail address" type="email" autoComplete="email" />
            <Honeypot />
            <div className="actions">
              <SubmitButton pendingText="Subscribing…">Subscribe</SubmitButton>
            </div>
          </Form>
        </>
      ) : null}
    </Card>
  );
}
