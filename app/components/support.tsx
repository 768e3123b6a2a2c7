import { Form, useFetcher } from "@remix-run/react";
import { useEffect, useId, useRef, useState } from "react";
import { Alert } from "./ui/alert";
import { Field, Honeypot } from "./ui/field";
import { Modal } from "./ui/modal";

type SupportResult =
  | { ok: true; entryNumber: number }
  | { ok: false; fieldErrors: Partial<Record<string, string[]>>; formError?: string; values: Record<string, string> };

/** The support form (form 255): prefilled with the member's e-mail and the source 'Member Site'. */
export function SupportForm({
  email,
  result,
  fetcher,
}: {
  email: string;
  result: SupportResult | undefined;
  fetcher?: ReturnType<typeof useFetcher>;
}) {
  const messageId = useId();
  if (result?.ok) {
    return (
      <Alert kind="success" title="Thank you">
        Your request #{result.entryNumber} has reached our support team. We answer by e-mail.
      </Alert>
    );
  }
  const failure = result && !result.ok ? result : undefined;
  const FormComponent = fetcher ? fetcher.Form : Form;
  const busy = fetcher ? fetcher.state !== "idle" : false;
  return (
    <FormComponent method="post" action="/support" className="form" noValidate>
      {failure?.formError ? <Alert kind="error">{failure.formError}</Alert> : null}
      <input type="hidden" name="source" value="Member Site" />
      <Field
        label="Your e-mail address"
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={failure?.values.email ?? email}
        errors={failure?.fieldErrors.email}
      />
      <Field label="Your name (optional)" name="name" autoComplete="name" defaultValue={failure?.values.name} />
      <Field
        label="Subject"
        name="subject"
        required
        defaultValue={failure?.values.subject}
        errors={failure?.fieldErrors.subject}
      />
      <div className="field">
        <label htmlFor={messageId}>Message</label>
        <textarea
          id={messageId}
          name="message"
          rows={6}
          required
          defaultValue={failure?.values.message}
          aria-invalid={failure?.fieldErrors.message ? true : undefined}
          aria-describedby={failure?.fieldErrors.message ? `${messageId}-error` : undefined}
        />
        {failure?.fieldErrors.message ? (
          <p id={`${messageId}-error`} className="field-error">
            {failure.fieldErrors.message.join(" ")}
          </p>
        ) : null}
      </div>
      <Honeypot />
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy} aria-busy={busy || undefined}>
          {busy ? "Sending…" : "Send"}
        </button>
      </div>
    </FormComponent>
  );
}

/** The Contact Support modal of the footer. */
export function SupportDialog({ email, open, onClose }: { email: string; open: boolean; onClose: () => void }) {
  // A new fetcher after each sent request, so the next opening shows an empty form; what is
  // typed but not sent stays when the dialog closes.
  const [round, setRound] = useState(0);
  const fetcher = useFetcher<SupportResult>({ key: `support-${round}` });
  const sent = fetcher.data?.ok === true;
  const wasOpen = useRef(open);
  useEffect(() => {
    if (open && !wasOpen.current && sent) setRound((r) => r + 1);
    wasOpen.current = open;
  }, [open, sent]);
  return (
    <Modal title="Contact Support" open={open} onClose={onClose}>
      <SupportForm key={round} email={email} result={fetcher.data} fetcher={fetcher} />
    </Modal>
  );
}
