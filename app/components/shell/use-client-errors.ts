import { useEffect, useState } from "react";
import { isChunkLoadError, reloadAfterChunkError } from "~/lib/chunk-reload";

/** Reports uncaught errors, shows the red bar, and reloads once after a failed chunk load. */
export function useClientErrors(): boolean {
  const [detected, setDetected] = useState(false);
  useEffect(() => {
    const handle = (error: unknown, message: string) => {
      if (isChunkLoadError(message) && reloadAfterChunkError()) return;
      setDetected(true);
      // The reporter loads with the first error: no page needs it to render.
      void import("~/lib/error-reporting").then(({ reportClientError }) => reportClientError(error));
    };
    const onError = (event: ErrorEvent) => handle(event.error ?? event.message, event.message ?? "");
    const onRejection = (event: PromiseRejectionEvent) =>
      handle(event.reason, event.reason instanceof Error ? event.reason.message : String(event.reason));
    window.addEventListener("error", onError);
    window.addEventListener("unhandledrejection", onRejection);
    return () => {
      window.removeEventListener("error", onError);
      window.removeEventListener("unhandledrejection", onRejection);
    };
  }, []);
  return detected;
}
