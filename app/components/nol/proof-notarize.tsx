import { Form } from "@remix-run/react";
import { SubmitButton } from "~/components/ui/submit-button";
import type { ProofNotarizeView } from "~/services/notary/proof-notarize-view.server";
import type { TimelineRow } from "./round-timeline";

/** A mailed round's proof of service at the notary: its status and links, and the forms that act on it. */
export function ProofNotarize({ row, view }: { row: TimelineRow; view: ProofNotarizeView }) {
  const state = view.rounds[row.round] ?? null;
  const of = `the proof of service of ${row.name}`;
  return (
    <div className="timeline-notarize">
      {state ? (
        <p>
          Notarizing {of}: <strong>{state.status}</strong>
        </p>
      ) : null}
      {state?.signingHref || state?.notarizedHref ? (
        <p className="actions">
          {state.signingHref ? <a href={state.signingHref}>Open the signing page</a> : null}
          {state.notarizedHref ? (
            <a href={state.notarizedHref} download aria-label={`The notarized proof of service of ${row.name} (PDF)`}>
              Notarized proof of service (PDF)
            </a>
          ) : null}
        </p>
      ) : null}
      <Form method="post" action={view.action} className="actions">
        <input type="hidden" name="version" value={view.version} />
        <input type="hidden" name="round" value={row.round} />
        {state?.nzId ? <input type="hidden" name="nz_id" value={state.nzId} /> : null}
        {!state || state.canStart ? (
          <SubmitButton
            name="intent"
            value="create"
            pendingText="Sending…"
            aria-label={`Notarize the proof of service online: ${row.name}`}
          >
            Notarize the proof of service online
          </SubmitButton>
        ) : null}
        {state?.nzId && !state.notarizedHref ? (
          <SubmitButton
            name="intent"
            value="refresh"
            className="button"
            pendingText="Reading…"
            aria-label={`Refresh the notarize status of ${of}`}
          >
            Refresh status
          </SubmitButton>
        ) : null}
        {state?.canDelete ? (
          <SubmitButton
            name="intent"
            value="delete"
            className="button"
            pendingText="Deleting…"
            aria-label={`Delete the notarization of ${of}`}
          >
            Delete
          </SubmitButton>
        ) : null}
      </Form>
    </div>
  );
}
