import { useForm, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

/**
 * The form fields of the house, on conform: each wires its label, its hint, its errors and
 * `aria-invalid` / `aria-describedby`, so no form writes those by hand. This module has no
 * schema library in it: a page whose form checks in the browser uses useSchemaForm
 * (./fields), a page that must stay light uses useServerForm.
 */

type Meta = FieldMetadata<unknown>;

/**
 * What a form's hook takes: the action's last answer, the first values (a fieldset's as an
 * object by its fields' names), the form's id.
 */
export type ServerFormOptions = {
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue?: Partial<Record<string, string | string[] | Record<string, string>>>;
  id?: string;
};

/**
 * conform's useForm for a form checked by its action only: the fields show the action's last
 * answer. The sign-in and sign-up pages use it, so their first load carries no schema library
 * (docs/decisions/026-light-sign-in-pages.md).
 */
export function useServerForm<Fields extends Record<string, unknown>>(options: ServerFormOptions = {}) {
  const [form, fields] = useForm<Fields>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
    shouldValidate: "onSubmit",
  });
  void form.allErrors;
  return [form, fields] as const;
}

/** The conform answer inside an action's data, when the data is one (an action may answer other things too). */
export function lastResultOf(data: unknown): SubmissionResult<string[]> | undefined {
  return data && typeof data === "object" && "result" in data
    ? (data as { result: SubmissionResult<string[]> }).result
    : undefined;
}

/**
 * The message under a field, read by screen readers with the field it belongs to: one per
 * field, the first rule it breaks (an empty e-mail is "Enter your e-mail address", not that
 * and "Enter a valid e-mail address" too).
 */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="field-error">
      {errors[0]}
    </p>
  );
}

/** The form's own errors (not tied to a field), announced when they appear. */
export function FormErrors({ form }: { form: Pick<FormMetadata<never, string[]>, "errors" | "errorId"> }) {
  if (!form.errors?.length) return null;
  return (
    <div id={form.errorId} className="alert alert-error" role="alert">
      {form.errors.join(" ")}
    </div>
  );
}

/**
 * What a field's markup takes of conform's metadata, read once. Each read of conform's
 * metadata builds the field's metadata object anew (with its getters and a proxy), and a
 * field read it some twenty times: on a page of forms, most of what the server allocated.
 * The ids are conform's own (`{form}-{name}`, then `-error` and `-description`), and
 * conform's helpers take the view as they take the metadata. No form of ours gives conform
 * constraints (the schemas check through onValidate), so none are read.
 */
export function fieldView(meta: Meta): Meta {
  const name = meta.name;
  const formId = meta.formId;
  const id = name ? `${formId}-${name}` : formId;
  const view = {
    id,
    name,
    formId,
    errorId: `${id}-error`,
    descriptionId: `${id}-description`,
    errors: meta.errors,
    initialValue: meta.initialValue,
  };
  return view as unknown as Meta;
}

function described(view: Meta, hint: ReactNode) {
  // The control's props add the error's id themselves when the field is invalid.
  return hint ? view.descriptionId : undefined;
}

type ControlProps = {
  id: string;
  name: string;
  form: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
  key?: undefined;
};

/**
 * What conform's getInputProps, getSelectProps and getTextareaProps give a field's view
 * (./fields.test.tsx holds them equal), made directly: conform's copy the props through
 * several spreads, which on a page of fifty fields cost more than the rest of the field.
 */
function controlProps(view: Meta, describedBy: string | undefined): ControlProps {
  const props: ControlProps = { id: view.id, name: view.name, form: view.formId };
  if (view.errors !== undefined) {
    props["aria-invalid"] = true;
    props["aria-describedby"] = `${view.errorId} ${describedBy ?? ""}`.trim();
  } else if (describedBy !== undefined) props["aria-describedby"] = describedBy;
  return props;
}

export function inputProps(view: Meta, options: { type: InputType | "checkbox"; describedBy?: string }) {
  const props: ControlProps & { type: string; value?: string; defaultChecked?: boolean; defaultValue?: string } = {
    ...controlProps(view, options.describedBy),
    type: options.type,
  };
  const initial = view.initialValue;
  if (options.type === "checkbox") {
    props.value = "on";
    props.defaultChecked = Array.isArray(initial) ? initial.includes(undefined) : initial === "on";
  } else if (typeof initial === "string") props.defaultValue = initial;
  return props;
}

export function selectProps(view: Meta, describedBy: string | undefined) {
  const props: ControlProps & { defaultValue?: string | string[] } = controlProps(view, describedBy);
  const initial = view.initialValue as unknown;
  if (Array.isArray(initial)) props.defaultValue = initial.map((item) => `${item ?? ""}`);
  else if (initial !== undefined && initial !== null) props.defaultValue = String(initial);
  return props;
}

export function textareaProps(view: Meta, describedBy: string | undefined) {
  const props: ControlProps & { defaultValue?: string } = controlProps(view, describedBy);
  const initial = view.initialValue as unknown;
  if (initial !== undefined && initial !== null) props.defaultValue = String(initial);
  return props;
}

/** The label, hint and error around a control. */
function FieldShell({
  view,
  label,
  hint,
  children,
}: {
  view: Meta;
  label: string;
  hint?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={view.id}>{label}</label>
      {hint ? (
        <p id={view.descriptionId} className="field-hint">
          {hint}
        </p>
      ) : null}
      {children}
      <ErrorList id={view.errorId} errors={view.errors} />
    </div>
  );
}

type InputType = "text" | "email" | "password" | "number" | "date" | "tel" | "url" | "search" | "hidden";

/** A labelled input. `type` defaults to text; a password never keeps what was typed. */
export function Field({
  meta,
  label,
  hint,
  type = "text",
  ...input
}: { meta: Meta; label: string; hint?: ReactNode; type?: InputType } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  "type" | "name" | "id" | "form"
>) {
  const view = fieldView(meta);
  const props = inputProps(view, { type, describedBy: described(view, hint) });
  return (
    <FieldShell view={view} label={label} hint={hint}>
      <input {...props} key={props.key} {...(type === "password" ? { defaultValue: undefined } : {})} {...input} />
    </FieldShell>
  );
}

/** A labelled select with its options. */
export function SelectField({
  meta,
  label,
  hint,
  children,
  ...select
}: { meta: Meta; label: string; hint?: ReactNode; children: ReactNode } & Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  "name" | "id" | "form"
>) {
  const view = fieldView(meta);
  const props = selectProps(view, described(view, hint));
  return (
    <FieldShell view={view} label={label} hint={hint}>
      <select {...props} key={props.key} {...select}>
        {children}
      </select>
    </FieldShell>
  );
}

/** A labelled text area. */
export function TextareaField({
  meta,
  label,
  hint,
  ...textarea
}: { meta: Meta; label: string; hint?: ReactNode } & Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  "name" | "id" | "form"
>) {
  const view = fieldView(meta);
  const props = textareaProps(view, described(view, hint));
  return (
    <FieldShell view={view} label={label} hint={hint}>
      <textarea {...props} key={props.key} {...textarea} />
    </FieldShell>
  );
}

/** A checkbox with its label beside it. */
export function CheckboxField({
  meta,
  label,
  ...input
}: { meta: Meta; label: ReactNode } & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "form">) {
  const view = fieldView(meta);
  const props = inputProps(view, { type: "checkbox", describedBy: described(view, null) });
  return (
    <div className="field">
      <div className="checkbox">
        <input {...props} key={props.key} {...input} />
        <label htmlFor={view.id}>{label}</label>
      </div>
      <ErrorList id={view.errorId} errors={view.errors} />
    </div>
  );
}

/** A field robots fill and people never see. */
export function Honeypot() {
  return (
    <div className="honeypot" aria-hidden="true">
      <label>
        Leave this empty
        <input type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/**
 * A labelled input of a form that is not on conform (its values and errors come from the
 * page's own data), wired as the house's fields are: its hint and its error beside it, named
 * by `aria-describedby`.
 */
export function PlainField({
  id,
  label,
  hint,
  error,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, "id"> & {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
}) {
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...input} aria-invalid={error ? true : undefined} aria-describedby={describedBy || undefined} />
      {hint ? (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      ) : null}
      <ErrorList id={`${id}-error`} errors={error ? [error] : null} />
    </div>
  );
}
