import { lazy, Suspense, useEffect, useState } from "react";
import type { PasskeyButtonProps } from "./passkey-button";

const LazyPasskeyButton = lazy(() => import("./passkey-button"));

/**
 * A passkey button as an island: the form's hidden field is in the page, and the button (with
 * the WebAuthn code) loads once the page runs, where the browser can use passkeys. No page
 * carries the passkey's code in its first load.
 */
export function PasskeyButton(props: PasskeyButtonProps) {
  const [running, setRunning] = useState(false);
  useEffect(() => setRunning(true), []);
  return (
    <>
      <input type="hidden" name={props.name} defaultValue="" />
      {running ? (
        <Suspense fallback={null}>
          <LazyPasskeyButton {...props} />
        </Suspense>
      ) : null}
    </>
  );
}
