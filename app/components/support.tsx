import type { SubmissionResult } from "@conform-to/react";
import { Form, useFetcher } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { HostedFormEmbed } from "~/components/cognito-embed";
import { SUPPORT_SOURCE } from "~/domain/forms";
import type { SeamlessEmbed } from "~/lib/seamless-embed";
import { Field, FormErrors, formProps, Honeypot, lastResultOf, TextareaField, useSchemaForm } from "./forms/fields";
import { Alert } from "./ui/alert";
import { Modal } from "./ui/modal";

/** What the support action answers: the entry's number, or the form's errors. */
export type SupportReply = { entryNumber: number } | { result: SubmissionResult<string[]> };

/** The support form (form 255): prefilled with the member's e-mail and the source 'Member Site'. */
export function SupportForm({
  email,
  reply,
  fetcher,
}: {
  email: string;
  reply: SupportReply | undefined;
  fetcher?: ReturnType<typeof useFetcher<SupportReply>>;
}) {
  const [form, fields] = useSchemaForm(() => import("~/domain/contact").then((m) => m.supportSchema), {
    lastResult: lastResultOf(reply),
    defaultValue: { email },
  });
  if (reply && "entryNumber" in reply) {
    return (
      <Alert kind="success" title="Thank you">
        Your request #{reply.entryNumber} has reached our support team. We answer by e-mail.
      </Alert>
    );
  }
  const FormComponent = fetcher ? fetcher.Form : Form;
  const busy = fetcher ? fetcher.state !== "idle" : false;
  return (
    <FormComponent method="post" action="/support" className="form" {...formProps(form)}>
      <FormErrors form={form} />
      <input type="hidden" name="source" value={SUPPORT_SOURCE} />
      <Field meta={fields.email} label="Your e-mail address" type="email" autoComplete="email" />
      <Field meta={fields.name} label="Your name (optional)" autoComplete="name" />
      <Field meta={fields.subject} label="Subject" />
      <TextareaField meta={fields.message} label="Message" rows={6} />
      <Honeypot />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy || undefined}>
          {busy ? "Sending…" : "Send"}
        </button>
      </div>
    </FormComponent>
  );
}

/**
 * The Contact Support modal of the footer: the community's hosted support form when it has one
 * (spec §2.4), else ours.
 */
export function SupportDialog({
  email,
  embed,
  open,
  onClose,
}: {
  email: string;
  embed: SeamlessEmbed | null;
  open: boolean;
  onClose: () => void;
}) {
  // A new fetcher after each sent request, so the next opening shows an empty form; what is
  // typed but not sent stays when the dialog closes.
  const [round, setRound] = useState(0);
  const fetcher = useFetcher<SupportReply>({ key: `support-${round}` });
  const sent = fetcher.data !== undefined && "entryNumber" in fetcher.data;
  const wasOpen = useRef(open);
  useEffect(() => {
    if (open && !wasOpen.current && sent) setRound((r) => r + 1);
    wasOpen.current = open;
  }, [open, sent]);
  return (
    <Modal title="Contact Support" open={open} onClose={onClose}>
      {embed ? (
        <HostedFormEmbed
          embed={embed}
          sentMessage="Thank you: your request has reached our support team. We answer by e-mail."
        />
      ) : (
        <SupportForm key={round} email={email} reply={fetcher.data} fetcher={fetcher} />
      )}
    </Modal>
  );
}
