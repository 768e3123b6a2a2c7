import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from "react";

/**
 * A form's state in the browser: the action's last answer shown by the fields, and the check
 * of a loaded schema as the member leaves a field, then as they type, and on submit. It does
 * what conform's useForm did for our forms, in a kilobyte and a half rather than eleven
 * (docs/decisions/065-forms-without-conform-in-the-browser.md). The server keeps conform:
 * its answers (`SubmissionResult`) are what this reads, and its reading of a form's values
 * (text, lists, nested names, nothing for an empty field) is the one kept here.
 */

/** An action's answer to a form, as the server's conform makes it. */
export type FormResult = SubmissionResult<string[]>;

/** The errors by field name, "" for the form's own. */
export type ErrorMap = Record<string, string[]>;

/** The browser's check of a form's data: its errors by field name, none when it is valid. */
export type Check = (formData: FormData) => Record<string, string[] | null | undefined> | null | undefined;

type Value<T> = unknown extends T
  ? unknown
  : T extends string | number | boolean | bigint | Date
    ? string
    : T extends readonly (infer Item)[]
      ? Value<Item> | Value<Item>[]
      : T extends object
        ? { [K in keyof T]?: Value<T[K]> }
        : string;

type KeysOf<T> = T extends object ? keyof T & string : never;
type At<T, K> = T extends unknown ? (K extends keyof T ? T[K] : never) : never;

/** A form's fields by their names, each with the type of its value. */
export type Fieldset<T> = { [K in KeysOf<T>]-?: FieldMeta<Value<At<T, K>>> };

/** What a field's markup reads: its name, its ids, its errors and its values. */
export type FieldMeta<V = unknown> = {
  name: string;
  /** `{form}-{name}`, then `-error` and `-description` for its message and its hint. */
  id: string;
  formId: string;
  errorId: string;
  descriptionId: string;
  errors?: string[];
  /** The value it starts with: the action's last answer's, else the form's default. */
  initialValue?: V;
  /** The value it holds now; a component that reads it renders again when it changes. */
  readonly value?: V;
  /** The fields of a nested object, by their names under this one. */
  getFieldset(): Record<string, FieldMeta>;
};

export type FormMeta = {
  id: string;
  errorId: string;
  errors?: string[];
  allErrors: ErrorMap;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
};

/** A form's first values, by name: text, a list of it, or a nested object's by its fields' names. */
export type FormValues = Partial<Record<string, string | string[] | Record<string, string>>>;

export type FormOptions = {
  id?: string;
  lastResult?: FormResult | null;
  defaultValue?: FormValues;
  /** The schema's check, once loaded: until then (and without it) the action checks the form. */
  check?: Check | null;
  /** false: the check runs on submit only, not as the member leaves a field or types. */
  live?: boolean;
};

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

const isPlain = (value: unknown): value is Record<string, unknown> => value?.constructor === Object;

/**
 * A form's values as conform reads them, which the server's answers follow: text, lists and
 * objects of it; an empty text, list or object is no value (an empty item keeps its place).
 */
export function formValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? value.map(formValue) : undefined;
  if (isPlain(value)) {
    let kept: Record<string, unknown> | undefined;
    for (const key in value) {
      const item = formValue(value[key]);
      if (item !== undefined) (kept ??= {})[key] = item;
    }
    return kept;
  }
  return value === "" || value === null ? undefined : value;
}

const pathOf = (name: string) => name.match(/[^.[\]]+/g) ?? [];

/** The value at a field's name (`address.city`, `plans[0]`) in a form's values. */
export function valueAt(values: unknown, name: string): unknown {
  for (const key of pathOf(name))
    values = (isPlain(values) || Array.isArray(values)) && Object.hasOwn(values, key) ? Object(values)[key] : undefined;
  return values;
}

/** A form's data as values: nested names as objects, a name sent more than once as a list. */
export function valuesOf(data: FormData): unknown {
  const values: Record<string, unknown> = {};
  for (const [name, sent] of data) {
    const path = pathOf(name);
    const last = path.pop();
    let at = values;
    for (const key of path) at = isPlain(at[key]) ? (at[key] as Record<string, unknown>) : (at[key] = {});
    if (last) at[last] = at[last] === undefined ? sent : [at[last], sent].flat();
  }
  return formValue(values);
}

/** An answer's errors, each field's with at least one message. */
export function errorsOf(errors: ReturnType<Check>): ErrorMap {
  const kept: ErrorMap = {};
  for (const name in errors) if (errors[name]) kept[name] = errors[name]!;
  return kept;
}

/**
 * Of a check's errors, those the member has been shown a check of: a field left or typed in,
 * or anything under one (a nested object's fields), and all after a submit.
 */
export function errorsShown(errors: ErrorMap, checked: Set<string>, fields: string[]): ErrorMap {
  const shown: ErrorMap = {};
  for (const name in errors)
    if (
      checked.has(name) ||
      fields.some((field) => checked.has(field) && (name.startsWith(`${field}.`) || name.startsWith(`${field}[`)))
    )
      shown[name] = errors[name]!;
  return shown;
}

const isControl = (element: unknown): element is Control =>
  element instanceof Element &&
  /^(INPUT|SELECT|TEXTAREA)$/.test(element.tagName) &&
  !/^(submit|button|reset)$/.test((element as Control).type);

/** Focuses the form's first field with an error, so the member starts where the form is wrong. */
function focusFirst(form: HTMLFormElement | null, errors: ErrorMap) {
  for (const element of form?.elements ?? []) {
    if (isControl(element) && errors[element.name]) return element.focus();
  }
}

// The answer is shown before the browser paints; on the server there is nothing to show it to.
const useShownEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * The form's metadata and its fields' (`fields.name`, `fields.address.getFieldset().city`),
 * re-read on each render.
 */
export function useFormState<T = Record<string, unknown>>(options: FormOptions = {}) {
  const madeId = useId();
  const formId = options.id ?? madeId;
  const latest = useRef(options);
  latest.current = options;
  const [errors, setErrors] = useState(() => errorsOf(options.lastResult?.error));
  const [state] = useState(() => {
    const result = options.lastResult;
    const initial = formValue(result?.initialValue ?? options.defaultValue);
    return {
      result,
      initial,
      value: initial,
      /** The fields checked so far: their errors are shown, and they are checked again as the member types. */
      checked: new Set([...Object.keys(result?.error ?? {}), ...(result?.fields ?? [])]),
      /** The names whose value a render read: a change of one renders again. */
      watched: new Set<string>(),
      show(next: ErrorMap | null, value: unknown) {
        const moved = [...state.watched].some(
          (name) => JSON.stringify(valueAt(value, name)) !== JSON.stringify(valueAt(state.value, name)),
        );
        state.value = value;
        setErrors((shown) => {
          const after = next ?? shown;
          return moved || JSON.stringify(after) !== JSON.stringify(shown) ? { ...after } : shown;
        });
      },
      /** Reads the form's values again, and checks it if `name` is the field to check. */
      sync(form: HTMLFormElement, name: string) {
        const { check, live } = latest.current;
        const data = new FormData(form);
        const checking = check && live !== false && name;
        if (checking) state.checked.add(name);
        state.show(
          checking ? errorsShown(errorsOf(check(data)), state.checked, [...data.keys()]) : null,
          valuesOf(data),
        );
      },
      onSubmit(event: FormEvent<HTMLFormElement>) {
        const { check } = latest.current;
        if (!check) return;
        const form = event.currentTarget;
        const data = new FormData(form, (event.nativeEvent as SubmitEvent).submitter);
        const next = errorsOf(check(data));
        for (const name of [...data.keys(), ...Object.keys(next)]) state.checked.add(name);
        state.show(next, valuesOf(data));
        if (Object.keys(next).length > 0) {
          event.preventDefault();
          focusFirst(form, next);
        }
      },
    };
  });

  // A new answer from the action (the form sent with JavaScript): its errors and values.
  useShownEffect(() => {
    const result = options.lastResult;
    if (!result || result === state.result) return;
    state.result = result;
    const next = errorsOf(result.error);
    for (const name of [...Object.keys(next), ...(result.fields ?? [])]) state.checked.add(name);
    state.show(next, result.initialValue === undefined ? state.value : formValue(result.initialValue));
    if (result.status === "error") focusFirst(document.forms.namedItem(formId), next);
  });

  useEffect(() => {
    const controlOf = (event: Event) => {
      const element = event.target;
      const form = document.forms.namedItem(formId);
      return form && isControl(element) && element.form === form && element.name ? element : null;
    };
    // A field is checked when first left, then as the member types in it.
    const onBlur = (event: Event) => {
      const control = controlOf(event);
      if (control && !event.defaultPrevented && !state.checked.has(control.name))
        state.sync(control.form!, control.name);
    };
    const onInput = (event: Event) => {
      const control = controlOf(event);
      if (control)
        state.sync(control.form!, !event.defaultPrevented && state.checked.has(control.name) ? control.name : "");
    };
    document.addEventListener("focusout", onBlur);
    document.addEventListener("input", onInput);
    return () => {
      document.removeEventListener("focusout", onBlur);
      document.removeEventListener("input", onInput);
    };
  }, [formId, state]);

  const field = (name: string): FieldMeta => {
    const id = `${formId}-${name}`;
    return {
      name,
      id,
      formId,
      errorId: `${id}-error`,
      descriptionId: `${id}-description`,
      errors: errors[name],
      initialValue: valueAt(state.initial, name),
      get value() {
        state.watched.add(name);
        return valueAt(state.value, name);
      },
      getFieldset: () => fieldset(`${name}.`),
    };
  };
  const fieldset = (prefix: string) =>
    new Proxy({}, { get: (_, key) => (typeof key === "string" ? field(prefix + key) : undefined) });
  const form: FormMeta = {
    id: formId,
    errorId: `${formId}-error`,
    errors: errors[""],
    allErrors: errors,
    onSubmit: state.onSubmit,
  };
  return [form, fieldset("") as Fieldset<T>] as const;
}

/**
 * The form element's props: its id (its fields name it by `form`), the check on submit, no
 * browser bubbles (the fields show the messages), and its errors named when it has any.
 */
export function formProps(form: FormMeta) {
  const props: { id: string; onSubmit: FormMeta["onSubmit"]; noValidate: true; "aria-describedby"?: string } = {
    id: form.id,
    onSubmit: form.onSubmit,
    noValidate: true,
  };
  if (form.errors) props["aria-describedby"] = form.errorId;
  return props;
}
