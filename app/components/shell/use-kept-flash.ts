import { useLocation, useNavigation } from "@remix-run/react";
import { useState } from "react";

type Flash = { kind: "success" | "error" | "warn"; message: string };

type Kept = { key: string; shown: Flash | null; source: Flash | null };

/**
 * The one-time message a redirect brought stays on its page while the page's data is
 * refreshed (a login recheck, a fetcher's action): the server gives it to one response only.
 * It goes when the member moves to another page or sends a form.
 */
export function useKeptFlash(flash: Flash | null): Flash | null {
  const { key } = useLocation();
  const submitting = useNavigation().state === "submitting";
  const [kept, setKept] = useState<Kept>({ key, shown: flash, source: flash });
  let next = kept;
  if (flash && flash !== kept.source) next = { key, shown: flash, source: flash };
  else if (kept.shown && (kept.key !== key || submitting)) next = { ...kept, key, shown: null };
  if (next !== kept) setKept(next);
  return next.shown;
}
