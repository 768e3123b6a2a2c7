import { useEffect, useRef, useState, type ButtonHTMLAttributes } from "react";

export const CONFIRM_DELAY_MS = 5_000;

/**
 * A button for destructive actions (spec §4 "Confirm button"): the first click arms it, a
 * second click within the delay confirms (submits), then it disarms. Without JavaScript
 * it submits at once; the page behind it must still be safe to reach.
 */
export function ConfirmButton({
  children,
  confirmText = "Click again to confirm",
  delayMs = CONFIRM_DELAY_MS,
  onClick,
  className = "button button-danger",
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { confirmText?: string; delayMs?: number }) {
  const [armed, setArmed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <button
      type="submit"
      className={className}
      aria-live="polite"
      {...props}
      onClick={(event) => {
        if (!armed) {
          event.preventDefault();
          setArmed(true);
          timer.current = setTimeout(() => setArmed(false), delayMs);
          return;
        }
        clearTimeout(timer.current);
        setArmed(false);
        onClick?.(event);
      }}
    >
      {armed ? confirmText : children}
    </button>
  );
}
