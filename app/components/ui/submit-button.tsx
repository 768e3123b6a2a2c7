import { useNavigation } from "@remix-run/react";
import type { ButtonHTMLAttributes } from "react";

/** A submit button that shows the form is on its way and cannot be sent twice meanwhile. */
export function SubmitButton({
  children,
  pendingText,
  className = "button button-primary",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { pendingText?: string }) {
  const navigation = useNavigation();
  // Busy from the click until the next page shows: while the action runs, then while the
  // page it leads to (a redirect's, or this one again) loads.
  const sent =
    navigation.state === "submitting" ||
    (navigation.state === "loading" && navigation.formMethod !== undefined && navigation.formMethod !== "GET");
  const pending = sent && (!props.value || navigation.formData?.get(props.name ?? "") === props.value);
  return (
    <button
      type="submit"
      className={className}
      disabled={pending || props.disabled}
      aria-busy={pending || undefined}
      {...props}
    >
      {pending ? (pendingText ?? "Working…") : children}
    </button>
  );
}
