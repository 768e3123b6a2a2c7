import { useEffect, useState } from "react";
import type { z } from "zod";
import { firstInteraction } from "~/lib/first-interaction";
import { useFormState, type Check } from "./form-state";
import type { ServerFormOptions } from "./inputs";

export * from "./inputs";

/**
 * Forms that check their fields in the browser with the action's own zod schema. The schema
 * and conform's zod reader load at the page's first interaction
 * (docs/decisions/027-schemas-after-load.md), so no page fetches a schema library before a
 * person does something: until they arrive the form is checked by its action, as it is
 * without JavaScript. The fields themselves are in ./inputs, the form's state in ./form-state.
 */

/**
 * The browser check of a form: null until `loadSchema`'s schema and conform's zod reader have
 * loaded (the server reads the form with the same), then a function that gives the form
 * data's errors. `key` names the schema, for a page that changes it without remounting (a NoL
 * step after the next one).
 */
export function useSchemaValidation(loadSchema: () => Promise<z.ZodTypeAny>, key = ""): Check | null {
  const [check, setCheck] = useState<Check | null>(null);
  useEffect(() => {
    let live = true;
    // Nobody types before the first interaction: the schema and its reader load then.
    firstInteraction()
      .then(() => Promise.all([loadSchema(), import("@conform-to/zod")]))
      .then(
        ([schema, { parseWithZod }]) => {
          if (live)
            setCheck(() => (formData: FormData) => {
              const submission = parseWithZod(formData, { schema });
              return submission.status === "success" ? undefined : submission.error;
            });
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
  return check;
}

/**
 * A form with the house's settings: the schema (loaded after the page, see
 * useSchemaValidation) checking each field as the member leaves it, then as they type, and the
 * whole form on submit; the action's last answer shown by the fields. `loadSchema` is a
 * dynamic import of the module that holds it, e.g.
 * `() => import("~/domain/contact").then((m) => m.supportSchema)`.
 */
export function useSchemaForm<Schema extends z.ZodTypeAny>(
  loadSchema: () => Promise<Schema>,
  options: ServerFormOptions & { key?: string } = {},
) {
  return useFormState<z.input<Schema>>({ ...options, check: useSchemaValidation(loadSchema, options.key) });
}
