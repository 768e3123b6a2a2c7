import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { SubmitButton } from "./submit-button";

/**
 * One row's action in a list or a table: a form posting the intent with the row's id, its
 * button busy while it goes, and named for a screen reader by the row it acts on.
 */
export function RowAction({
  intent,
  field,
  value,
  label,
  pendingText,
  children,
  className = "button",
  formClassName,
}: {
  intent: string;
  /** The field naming the row, and its value. */
  field: string;
  value: string;
  /** The button's name for a screen reader: what it does to which row. */
  label: string;
  pendingText: string;
  children: ReactNode;
  className?: string;
  formClassName?: string;
}) {
  return (
    <Form method="post" className={formClassName}>
      <input type="hidden" name={field} value={value} />
      <SubmitButton name="intent" value={intent} className={className} pendingText={pendingText} aria-label={label}>
        {children}
      </SubmitButton>
    </Form>
  );
}
