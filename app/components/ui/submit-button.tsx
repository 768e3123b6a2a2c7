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
  const pending =
    navigation.state === "submitting" && (!props.value || navigation.formData?.get(props.name ?? "") === props.value);
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
