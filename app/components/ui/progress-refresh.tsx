import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/**
 * While work the page shows runs in the background, its data is reloaded every two seconds;
 * without JavaScript, the page refreshes itself every five.
 */
export function ProgressRefresh({ running }: { running: boolean }) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      if (state === "idle") revalidate();
    }, 2_000);
    return () => clearInterval(timer);
  }, [running, revalidate, state]);
  return running ? (
    <noscript>
      <meta httpEquiv="refresh" content="5" />
    </noscript>
  ) : null;
}
