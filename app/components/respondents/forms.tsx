import type { SubmissionResult } from "@conform-to/react";
import { Link } from "@remix-run/react";
import { Field, SelectField, TextareaField, useSchemaForm } from "~/components/forms/fields";
import { Card, FormCard } from "~/components/identity/card";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import { RESPONDENT_TYPES } from "~/domain/nol/billing";

/** The respondent forms and the notice of correction, on the built-in forms (spec §3 form ids 92, 207, 134, 218). */

type Result = SubmissionResult<string[]> | undefined;

/** /search-for-a-respondent (form 92). */
export function SearchForm({ lastResult }: { lastResult: Result }) {
  const [form, fields] = useSchemaForm(() => import("~/domain/respondents").then((m) => m.searchFormSchema), {
    lastResult,
  });
  return (
    <FormCard
      id="search-title"
      title="Search for a respondent"
      lead="Look a respondent up in the community's directory."
      form={form}
      submit={<SubmitButton pendingText="Searching…">Search</SubmitButton>}
    >
      <Field meta={fields.q} label="Name" hint="All or part of a person's, office's or company's name." />
      <Field meta={fields.place} label="Place (optional)" hint="A city, a state or a country." />
    </FormCard>
  );
}

/** /suggest-a-new-respondent (form 207). */
export function SuggestionForm({
  lastResult,
  existing,
}: {
  lastResult: Result;
  existing: { id: number; name: string; place: string | null } | null;
}) {
  const [form, fields] = useSchemaForm(() => import("~/domain/respondents").then((m) => m.suggestionSchema), {
    lastResult,
  });
  return (
    <FormCard
      id="suggest-title"
      title="Suggest a new respondent"
      lead="An admin reviews each suggestion before it joins the directory; we write to you either way."
      note={
        existing ? (
          <Alert kind="warn" title="Already in the directory">
            {existing.name}
            {existing.place ? ` (${existing.place})` : ""} is in the directory already.{" "}
            <Link to={`/respondents?${new URLSearchParams({ q: existing.name })}`}>See them in the directory</Link>.
          </Alert>
        ) : null
      }
      form={form}
      submit={<SubmitButton pendingText="Sending…">Send the suggestion</SubmitButton>}
    >
      <Field meta={fields.name} label="Name" hint="The person, office or company." />
      <SelectField meta={fields.type} label="Kind of respondent">
        <option value="">Choose…</option>
        {RESPONDENT_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </SelectField>
      <Field meta={fields.agency} label="Agency or company (optional)" />
      <Field meta={fields.place} label="Place" hint="A city, a state or a country." />
      <Field meta={fields.address} label="Address (optional)" />
      <TextareaField meta={fields.reason} label="Why they belong in the directory" rows={4} />
    </FormCard>
  );
}

/** /respondent-reassessment (form 134). */
export function ReassessmentForm({
  lastResult,
  respondents,
  chosen,
}: {
  lastResult: Result;
  respondents: { id: number; name: string; place: string | null }[];
  chosen: number | null;
}) {
  const [form, fields] = useSchemaForm(() => import("~/domain/respondents").then((m) => m.reassessmentSchema), {
    lastResult,
    defaultValue: chosen ? { respondent: String(chosen) } : undefined,
  });
  return (
    <FormCard
      id="reassess-title"
      title="Respondent reassessment"
      lead="Ask an admin to look again at a respondent of the directory: a change of name, of office, of address."
      form={form}
      submit={<SubmitButton pendingText="Sending…">Send the request</SubmitButton>}
    >
      <SelectField meta={fields.respondent} label="Respondent">
        <option value="">Choose…</option>
        {respondents.map((r) => (
          <option key={r.id} value={r.id}>
            {r.name}
            {r.place ? ` (${r.place})` : ""}
          </option>
        ))}
      </SelectField>
      <TextareaField meta={fields.reason} label="What should be reassessed" rows={4} />
    </FormCard>
  );
}

/** /notice-of-correction (form 218). */
export function CorrectionForm({
  lastResult,
  notices,
  chosen,
}: {
  lastResult: Result;
  notices: { id: number; label: string }[];
  chosen: number | null;
}) {
  const [form, fields] = useSchemaForm(() => import("~/domain/respondents").then((m) => m.correctionSchema), {
    lastResult,
    defaultValue: chosen ? { notice: String(chosen) } : undefined,
  });
  const card = {
    id: "correction-title",
    title: "Notice of correction",
    lead: "Correct a notice you sent: say which notice and round, and what changes.",
  };
  if (notices.length === 0) {
    return (
      <Card {...card}>
        <p>
          You have no notices to correct yet. <Link to="/nol">Open the notice creator</Link>.
        </p>
      </Card>
    );
  }
  return (
    <FormCard {...card} form={form} submit={<SubmitButton pendingText="Sending…">File the correction</SubmitButton>}>
      <SelectField meta={fields.notice} label="Notice and round">
        <option value="">Choose…</option>
        {notices.map((n) => (
          <option key={n.id} value={n.id}>
            {n.label}
          </option>
        ))}
      </SelectField>
      <TextareaField meta={fields.change} label="What changes" rows={5} />
    </FormCard>
  );
}
