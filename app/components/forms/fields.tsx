import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { z } from "zod";

export * from "./inputs";

/**
 * The same zod schema validates in the browser (conform's onValidate) and in the action
 * (parseWithZod); the fields themselves are in ./inputs.
 */

/**
 * conform's useForm with the house's settings: the schema's constraints on the inputs, the
 * schema validating in the browser (on blur, then as the member types), and the action's
 * last answer shown by the fields.
 */
export function useSchemaForm<Schema extends z.ZodTypeAny>(
  schema: Schema,
  options: {
    lastResult?: SubmissionResult<string[]> | null;
    defaultValue?: Partial<Record<string, string | string[]>>;
    id?: string;
  } = {},
) {
  const [form, fields] = useForm<z.input<Schema>, z.output<Schema>>({
    id: options.id,
    lastResult: options.lastResult,
    defaultValue: options.defaultValue as never,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  // conform re-renders the component that read a piece of state. The field components read
  // their own errors, which React may skip when it re-runs this component for a state update
  // that changes nothing (a bail-out): reading every error here keeps them all subscribed.
  void form.allErrors;
  return [form, fields] as const;
}
