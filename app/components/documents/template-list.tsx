import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { FormErrors, formProps, SelectField, TextareaField, useSchemaForm } from "~/components/forms/fields";
import { SubmitButton } from "~/components/ui/submit-button";
import { DOCUMENT_KINDS } from "~/domain/documents/placeholders";
import { KIND_NAMES, roundChoices, scopeLabel, type TemplateScope } from "~/domain/documents/template-scope";
import { formatDateTime } from "~/lib/format";
import { DocumentDisclaimer } from "./disclaimer";
import { DataTable } from "~/components/ui/record-table";
import { AdminSection } from "~/components/admin/admin-section";

type TemplateSummary = TemplateScope & { id: number; version: number; createdAt: string; causeName: string | null };

/** A form's last answer, when it was this form's (both forms post to one action, named by `intent`). */
function answerOf(lastResult: SubmissionResult<string[]> | undefined, intent: string) {
  return (lastResult?.initialValue as { intent?: unknown } | undefined)?.intent === intent ? lastResult : undefined;
}

/** /admin/templates: the templates in use, a template for a cause or round of its own, and the "not legal advice" notice. */
export function TemplateList({
  templates,
  causes,
  disclaimer,
  lastResult,
}: {
  templates: TemplateSummary[];
  causes: { code: string; name: string }[];
  disclaimer: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  return (
    <AdminSection id="templates-title" title="Document templates">
      <DocumentDisclaimer text={disclaimer} />
      <p className="muted">
        Each notice round and each true bill is printed from the template of its cause and round, or the closest one: a
        cause&apos;s template for any round, then a template of any cause for the round, then the one for any cause and
        round. Saving a template makes a new version; a notice keeps the version its document was first made with.
      </p>
      <DataTable
        caption="Templates in use"
        hiddenCaption
        rows={templates}
        columns={[
          {
            header: "Template",
            cell: (t) => <Link to={`/admin/templates/${t.id}`}>{scopeLabel(t, t.causeName)}</Link>,
          },
          { header: "Version", cell: (t) => t.version },
          { header: "Saved", cell: (t) => formatDateTime(t.createdAt) },
        ]}
      />
      <NewTemplateForm causes={causes} lastResult={answerOf(lastResult, "create")} />
      <DisclaimerForm disclaimer={disclaimer} lastResult={answerOf(lastResult, "disclaimer")} />
    </AdminSection>
  );
}

const rounds = roundChoices();

function NewTemplateForm({
  causes,
  lastResult,
}: {
  causes: { code: string; name: string }[];
  lastResult?: SubmissionResult<string[]>;
}) {
  const [form, fields] = useSchemaForm(() => import("~/domain/documents/templates").then((m) => m.newTemplateSchema), {
    id: "new-template",
    lastResult,
  });
  return (
    <>
      <h2>A template for a cause or a round</h2>
      <Form method="post" className="form" {...formProps(form)}>
        <FormErrors form={form} />
        <input type="hidden" name="intent" value="create" />
        <SelectField meta={fields.kind} label="Kind">
          {DOCUMENT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {KIND_NAMES[kind]}
            </option>
          ))}
        </SelectField>
        <SelectField meta={fields.causeCode} label="Cause">
          <option value="">Any cause</option>
          {causes.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <SelectField
          meta={fields.round}
          label="Round"
          hint="A notice template is for a notice, a true bill template for a true bill; any round serves every round of its kind."
        >
          <option value="">Any round</option>
          {(
            [
              ["Notices", rounds.notices],
              ["True bills", rounds.trueBills],
            ] as const
          ).map(([label, group]) => (
            <optgroup key={label} label={label}>
              {group.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.name}
                </option>
              ))}
            </optgroup>
          ))}
        </SelectField>
        <div className="actions">
          <SubmitButton pendingText="Creating…">Create from the text in use</SubmitButton>
        </div>
      </Form>
    </>
  );
}

function DisclaimerForm({ disclaimer, lastResult }: { disclaimer: string; lastResult?: SubmissionResult<string[]> }) {
  const [form, fields] = useSchemaForm(() => import("~/domain/documents/templates").then((m) => m.disclaimerSchema), {
    id: "disclaimer",
    lastResult,
    defaultValue: { disclaimer },
  });
  return (
    <>
      <h2>The &ldquo;not legal advice&rdquo; notice</h2>
      <Form method="post" className="form" {...formProps(form)}>
        <FormErrors form={form} />
        <input type="hidden" name="intent" value="disclaimer" />
        <TextareaField
          meta={fields.disclaimer}
          label="Notice"
          hint="Shown on every page that makes a document, and printed at the foot of each page of the documents."
          rows={4}
        />
        <div className="actions">
          <SubmitButton pendingText="Saving…">Save the notice</SubmitButton>
        </div>
      </Form>
    </>
  );
}
