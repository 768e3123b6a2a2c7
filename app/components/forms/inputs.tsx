import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { useFormState, type FieldMeta, type FormMeta, type FormOptions, type FormResult } from "./form-state";

export {
  formProps,
  useFormState,
  type FieldMeta,
  type Fieldset,
  type FormMeta,
  type FormResult,
  type FormValues,
} from "./form-state";

/**
 * The form fields of the house: each wires its label, its hint, its errors and
 * `aria-invalid` / `aria-describedby`, so no form writes those by hand. This module has no
 * schema library in it: a page whose form checks in the browser uses useSchemaForm
 * (./fields), a page that must stay light uses useServerForm.
 */

type Meta = FieldMeta;

/**
 * What a form's hook takes: the action's last answer, the first values (a fieldset's as an
 * object by its fields' names), the form's id.
 */
export type ServerFormOptions = Pick<FormOptions, "id" | "lastResult" | "defaultValue">;

/**
 * A form checked by its action only: the fields show the action's last answer. The sign-in and
 * sign-up pages use it, so their first load carries no schema library
 * (docs/decisions/026-light-sign-in-pages.md).
 */
export function useServerForm<Fields extends Record<string, unknown>>(options: ServerFormOptions = {}) {
  return useFormState<Fields>(options);
}

/** The form's answer inside an action's data, when the data is one (an action may answer other things too). */
export function lastResultOf(data: unknown): FormResult | undefined {
  return data && typeof data === "object" && "result" in data ? (data as { result: FormResult }).result : undefined;
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
export function FormErrors({ form }: { form: Pick<FormMeta, "errors" | "errorId"> }) {
  if (!form.errors?.length) return null;
  return (
    <div id={form.errorId} className="alert alert-error" role="alert">
      {form.errors.join(" ")}
    </div>
  );
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
};

/**
 * A control's name, ids and state for assistive technology: `aria-invalid` and the error's id
 * first in `aria-describedby` while the field has an error, the hint's id after it
 * (./fields.test.tsx pins the markup).
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
    // A checkbox sent alone is "on"; sent in a list, its value there is an empty one.
    props.defaultChecked = Array.isArray(initial) ? initial.includes(undefined) : initial === "on";
  } else if (typeof initial === "string") props.defaultValue = initial;
  return props;
}

export function selectProps(view: Meta, describedBy: string | undefined) {
  const props: ControlProps & { defaultValue?: string | string[] } = controlProps(view, describedBy);
  const initial = view.initialValue;
  if (Array.isArray(initial)) props.defaultValue = initial.map((item) => `${item ?? ""}`);
  else if (initial !== undefined && initial !== null) props.defaultValue = String(initial);
  return props;
}

export function textareaProps(view: Meta, describedBy: string | undefined) {
  const props: ControlProps & { defaultValue?: string } = controlProps(view, describedBy);
  const initial = view.initialValue;
  if (initial !== undefined && initial !== null) props.defaultValue = String(initial);
  return props;
}

/**
 * The checkboxes of one name, one per value (several values under one name): each its own id
 * (`{field}-{value}`), checked when the field's values hold it; the group names its error.
 */
export function checkboxGroupProps(view: Meta, values: string[]) {
  const initial = view.initialValue;
  return values.map((value) => ({
    ...controlProps(view, undefined),
    key: value,
    id: `${view.id}-${value}`,
    type: "checkbox",
    value,
    defaultChecked: Array.isArray(initial) ? initial.includes(value) : initial === value,
  }));
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
  const props = inputProps(meta, { type, describedBy: described(meta, hint) });
  return (
    <FieldShell view={meta} label={label} hint={hint}>
      <input {...props} {...(type === "password" ? { defaultValue: undefined } : {})} {...input} />
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
  const props = selectProps(meta, described(meta, hint));
  return (
    <FieldShell view={meta} label={label} hint={hint}>
      <select {...props} {...select}>
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
  const props = textareaProps(meta, described(meta, hint));
  return (
    <FieldShell view={meta} label={label} hint={hint}>
      <textarea {...props} {...textarea} />
    </FieldShell>
  );
}

/** A checkbox with its label beside it. */
export function CheckboxField({
  meta,
  label,
  ...input
}: { meta: Meta; label: ReactNode } & Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "name" | "id" | "form">) {
  const props = inputProps(meta, { type: "checkbox" });
  return (
    <div className="field">
      <div className="checkbox">
        <input {...props} {...input} />
        <label htmlFor={meta.id}>{label}</label>
      </div>
      <ErrorList id={meta.errorId} errors={meta.errors} />
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
 * A labelled input of a form without the form state (its values and errors come from the
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
