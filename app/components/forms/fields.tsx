import { useForm, type Submission } from "@conform-to/react";
import { useEffect, useState } from "react";
import type { z } from "zod";
import { firstInteraction } from "~/lib/first-interaction";
import type { ServerFormOptions } from "./inputs";

export * from "./inputs";

/**
 * Forms that check their fields in the browser with the action's own zod schema. The schema
 * and conform's zod adapter load at the page's first interaction
 * (docs/decisions/027-schemas-after-load.md), so no page fetches a schema library before a
 * person does something: until they arrive the form is checked by its action, as it is
 * without JavaScript. The fields themselves are in ./inputs.
 */

type Validate = (formData: FormData) => Submission<unknown>;

/**
 * The browser check of a form: null until `loadSchema`'s schema and the zod adapter have
 * loaded, then a function that checks the form's data with it. `key` names the schema, for a
 * page that changes it without remounting (a NoL step after the next one).
 */
export function useSchemaValidation(loadSchema: () => Promise<z.ZodTypeAny>, key = ""): Validate | null {
  const [validate, setValidate] = useState<Validate | null>(null);
  useEffect(() => {
    let live = true;
    // Nobody types before the first interaction: the schema and its reader load then.
    firstInteraction()
      .then(() => Promise.all([loadSchema(), import("@conform-to/zod")]))
      .then(
        ([schema, { parseWithZod }]) => {
          if (live) setValidate(() => (formData: FormData) => parseWithZod(formData, { schema }));
        },
        // A schema that cannot load (the network dropped) leaves the check to the action.
        () => undefined,
      );
    return () => {
      live = false;
    };
    // The schema is named by its key: a new function each render must not reload it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return validate;
}

/**
 * conform's settings for a form checked in the browser once `validate` is there: on blur, then
 * as the member types. Until then, on submit only, so no keystroke sends the form to the action.
 */
export function browserCheck<Value>(validate: Validate | null) {
  return validate
    ? {
        onValidate: ({ formData }: { formData: FormData }) => validate(formData) as Submission<Value>,
        shouldValidate: "onBlur" as const,
        shouldRevalidate: "onInput" as const,
      }
    : { shouldValidate: "onSubmit" as const, shouldRevalidate: "onSubmit" as const };
}

/**
 * conform's useForm with the house's settings: the schema (loaded after the page, see
 * useSchemaValidation) checking in the browser, and the action's last answer shown by the
 * fields. `loadSchema` is a dynamic import of the module that holds it, e.g.
 * `() => import("~/domain/contact").then((m) => m.supportSchema)`.
 */
export function useSchemaForm<Schema extends z.ZodTypeAny>(
  loadSchema: () => Promise<Schema>,
  options: ServerFormOptions & { key?: string } = {},
) {
  const validate = useSchemaValidation(loadSchema, options.key);
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
    ...browserCheck<z.output<Schema>>(validate),
  });
  // conform re-renders the component that read a piece of state. The field components read
  // their own errors, which React may skip when it re-runs this component for a state update
  // that changes nothing (a bail-out): reading every error here keeps them all subscribed.
  void form.allErrors;
  return [form, fields] as const;
}
