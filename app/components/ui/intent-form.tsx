import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { ConfirmButton } from "./confirm-button";
import { SubmitButton } from "./submit-button";

/** What a form of one action posts: its intent, and the button's words. */
type IntentProps = { intent: string; children: ReactNode };

/** A form of one button posting its intent to the page's action, busy while it goes. */
export function IntentForm({
  intent,
  pendingText,
  className,
  children,
}: IntentProps & {
  pendingText: string;
  /** The button's class; a primary button by default. */
  className?: string;
}) {
  return (
    <Form method="post">
      <SubmitButton name="intent" value={intent} pendingText={pendingText} {...(className ? { className } : {})}>
        {children}
      </SubmitButton>
    </Form>
  );
}

/** A destructive action of its own: a form posting its intent once the button is clicked twice. */
export function ConfirmForm({ intent, confirmText, children }: IntentProps & { confirmText: string }) {
  return (
    <Form method="post" className="actions">
      <input type="hidden" name="intent" value={intent} />
      <ConfirmButton confirmText={confirmText}>{children}</ConfirmButton>
    </Form>
  );
}
