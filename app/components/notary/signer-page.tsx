import { Form, Link } from "@remix-run/react";
import { Card } from "~/components/identity/card";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import type { SignerStep } from "~/providers/notary/types";
import type { SignerIntent, SignerPageData } from "~/services/notary/signer-page.server";

const ORDER: SignerStep[] = ["meet", "sign", "done"];
const reached = (step: SignerStep, at: SignerStep) => ORDER.indexOf(step) >= ORDER.indexOf(at);

/** One step's button: a plain form post, kept with the page's `return` address. */
function StepForm({
  intent,
  label,
  pending,
  returnParam,
}: {
  intent: SignerIntent;
  label: string;
  pending: string;
  returnParam: string | null;
}) {
  return (
    <Form method="post" className="actions">
      {returnParam ? <input type="hidden" name="return" value={returnParam} /> : null}
      <SubmitButton name="intent" value={intent} pendingText={pending}>
        {label}
      </SubmitButton>
    </Form>
  );
}

/** The sandbox notary's signer page: review the document, meet the notary, sign. */
export function SignerPageView({ data, error }: { data: SignerPageData; error: string | null }) {
  if (data.kind === "removed") {
    return (
      <Card id="signer-title" title="Sign and notarize">
        <Alert kind="warn">{data.message}</Alert>
        <p className="actions">
          <Link className="button" to={data.returnTo}>
            Return to {data.community}
          </Link>
        </p>
      </Card>
    );
  }
  const { step } = data;
  const current = (at: SignerStep) => (step === at ? ("step" as const) : undefined);
  return (
    <Card
      id="signer-title"
      title="Sign and notarize"
      lead={`${data.documentName}, for ${data.signerName}, sent by ${data.community}.`}
    >
      <Alert kind="warn" title="Sandbox notary — not a legal notarization">
        This is the site&apos;s built-in test notary: no notary public takes part and nothing signed here has legal
        effect.
      </Alert>
      {error ? <Alert kind="error">{error}</Alert> : null}
      {step === "not_sent" ? <Alert kind="warn">This document has not been sent for signing yet.</Alert> : null}
      {step === "closed" ? <Alert kind="warn">This notarization has ended ({data.detailedStatus}).</Alert> : null}
      <ol className="notary-steps">
        <li aria-current={step === "meet" ? "step" : undefined}>
          <h2>Review the document</h2>
          <iframe className="notary-document" src={data.documentUrl} title={`The document: ${data.documentName}`} />
          <p>
            <a href={data.documentUrl} target="_blank" rel="noopener noreferrer">
              Open the {step === "done" ? "notarized " : ""}document (PDF)
            </a>
          </p>
        </li>
        <li aria-current={current("meet")}>
          <h2>Meet the notary</h2>
          {step === "meet" ? (
            <StepForm intent="meet" label="Meet the notary" pending="Connecting…" returnParam={data.returnParam} />
          ) : reached(step, "sign") ? (
            <p>You met the sandbox notary.</p>
          ) : (
            <p className="muted">Once the document is sent to you.</p>
          )}
        </li>
        <li aria-current={current("sign")}>
          <h2>Sign</h2>
          {step === "sign" ? (
            <StepForm intent="sign" label="Sign" pending="Signing…" returnParam={data.returnParam} />
          ) : step === "done" ? (
            <p>You signed; the notary stamped the document and added a certificate page.</p>
          ) : (
            <p className="muted">After you meet the notary.</p>
          )}
        </li>
      </ol>
      {step === "done" ? (
        <>
          <Alert kind="success">Signed: you can close this page and return to {data.community}</Alert>
          <p className="actions">
            <Link className="button button-primary" to={data.returnTo}>
              Return to {data.community}
            </Link>
          </p>
        </>
      ) : null}
      <details className="sandbox-controls">
        <summary>Sandbox notary controls</summary>
        <p>
          The notary&apos;s own staff can delete a transaction on their side. Try here what {data.community} shows when
          that happens: the document is removed and this link stops working.
        </p>
        <StepForm
          intent="remove"
          label="Delete at the sandbox notary"
          pending="Deleting…"
          returnParam={data.returnParam}
        />
      </details>
    </Card>
  );
}
