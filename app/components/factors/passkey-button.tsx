import { useEffect, useRef, useState, type ReactNode } from "react";
import { passkeyAnswer, passkeyProblem, passkeysSupported, type PasskeyCeremony } from "~/lib/passkey-client";

export type PasskeyButtonProps = {
  /** The form's hidden field the answer goes into (the island puts it in the page). */
  name: string;
  optionsUrl: string;
  optionsFields: Record<string, string>;
  ceremony?: PasskeyCeremony;
  children: ReactNode;
  className?: string;
};

/**
 * A form's passkey: its hidden field, and the button, shown where the browser can use passkeys
 * (the WebAuthn library loads at the click, so the page fetches nothing more before).
 */
export function PasskeyField(props: PasskeyButtonProps) {
  return (
    <>
      <input type="hidden" name={props.name} defaultValue="" />
      <PasskeyButton {...props} />
    </>
  );
}

/**
 * The passkey button itself: shown where the browser can use passkeys; asks the server for a
 * challenge, lets the device answer, puts the answer in the form's field and sends the form.
 */
export default function PasskeyButton({
  name,
  optionsUrl,
  optionsFields,
  ceremony = "get",
  children,
  className = "button button-primary",
}: PasskeyButtonProps) {
  const [supported, setSupported] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => setSupported(passkeysSupported()), []);
  const start = async () => {
    const form = button.current?.form;
    const field = form?.elements.namedItem(name);
    if (!form || !(field instanceof HTMLInputElement) || !form.reportValidity()) return;
    setBusy(true);
    setProblem(null);
    try {
      field.value = await passkeyAnswer(optionsUrl, optionsFields, ceremony);
      form.requestSubmit();
    } catch (error) {
      setProblem(passkeyProblem(error));
    } finally {
      setBusy(false);
    }
  };
  if (!supported) return null;
  return (
    <>
      <button
        ref={button}
        type="button"
        className={className}
        onClick={() => void start()}
        disabled={busy}
        aria-busy={busy}
      >
        {busy ? "Waiting for your passkey…" : children}
      </button>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}
