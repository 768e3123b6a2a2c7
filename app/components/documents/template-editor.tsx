import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { Fragment, useEffect, useRef } from "react";
import { FormErrors, formProps, TextareaField, useSchemaForm } from "~/components/forms/fields";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import { placeholdersFor } from "~/domain/documents/placeholders";
import { scopeLabel, type TemplateScope } from "~/domain/documents/template-scope";
import { formatDateTime } from "~/lib/format";
import { DocumentDisclaimer } from "./disclaimer";

type Version = TemplateScope & { id: number; version: number; createdAt: string };

/** How long the text rests before the preview follows it. */
const PREVIEW_DELAY_MS = 600;
const PREVIEW_FRAME = "template-preview";

/**
 * /admin/templates/{id}: the text with its placeholders, saved as a new version, and the
 * document it makes on a sample round beside it. The Preview button posts the text into the
 * frame; with JavaScript the frame follows the typing (debounced), by pressing it.
 */
export function TemplateEditor({
  template,
  newestId,
  versions,
  disclaimer,
  lastResult,
}: {
  template: Version & { body: string; causeName: string | null };
  newestId: number;
  versions: Version[];
  disclaimer: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useSchemaForm(
    () => import("~/domain/documents/templates").then((m) => m.templateBodySchema(template.kind)),
    { id: "template", key: template.kind, lastResult, defaultValue: { body: template.body } },
  );
  const formRef = useRef<HTMLFormElement>(null);
  const previewRef = useRef<HTMLButtonElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  const followTyping = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => formRef.current?.requestSubmit(previewRef.current), PREVIEW_DELAY_MS);
  };
  const previewHref = `/admin/templates/${template.id}/preview`;
  const placeholders = placeholdersFor(template.kind);
  return (
    <section className="card card-wide" aria-labelledby="template-title">
      <p>
        <Link to="/admin/templates">Document templates</Link>
      </p>
      <h1 id="template-title">
        {scopeLabel(template, template.causeName)}: version {template.version}
      </h1>
      {newestId !== template.id ? (
        <Alert kind="warn">
          This is an earlier version; <Link to={`/admin/templates/${newestId}`}>the newest one</Link> is in use. Saving
          this text makes it the newest version.
        </Alert>
      ) : null}
      <DocumentDisclaimer text={disclaimer} />
      <div className="template-editor">
        {/* A document form, not a Remix one: the Preview button targets the frame, which only a browser's own submit can. */}
        <form method="post" className="form" ref={formRef} {...formProps(form)} onInput={followTyping}>
          <FormErrors form={form} />
          <TextareaField
            meta={fields.body}
            label="Text"
            hint={`Use the placeholders listed below. A line that starts with "# " is a heading; "@from " prints the line in the return address and "@to " in the envelope window of each letter; "@signature" is where the member's signature goes (a notice or a true bill without it has the signature in place of its last "Signed: ____" line, else at its end).`}
            rows={24}
            spellCheck
          />
          <div className="actions">
            <SubmitButton pendingText="Saving…">Save as a new version</SubmitButton>
            <button
              ref={previewRef}
              type="submit"
              className="button"
              formAction={previewHref}
              formTarget={PREVIEW_FRAME}
            >
              Preview
            </button>
          </div>
        </form>
        <div className="template-preview">
          <h2>Preview</h2>
          <iframe name={PREVIEW_FRAME} title="The document on a sample round" src={previewHref} />
        </div>
      </div>
      <h2>Placeholders</h2>
      <dl className="placeholders">
        {placeholders.map((p) => (
          <Fragment key={p.name}>
            <dt>
              <code>{`{{${p.name}}}`}</code>
            </dt>
            <dd>{p.description}</dd>
          </Fragment>
        ))}
      </dl>
      <h2>Versions</h2>
      <ol reversed className="versions">
        {versions.map((v) => (
          <li key={v.id}>
            {v.id === template.id ? (
              <strong>Version {v.version}</strong>
            ) : (
              <Link to={`/admin/templates/${v.id}`}>Version {v.version}</Link>
            )}
            , saved {formatDateTime(v.createdAt)}
            {v.id === newestId ? " (in use)" : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
