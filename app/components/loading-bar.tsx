import { useFetchers, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";

/** spec §9: shown after 200 ms of loading, filling over 5000 ms, 2 px high. */
export const LOADING_THROTTLE_MS = 200;
export const LOADING_DURATION_MS = 5_000;

/** A thin bar at the top while a navigation or a fetcher is under way. */
export function LoadingBar() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((f) => f.state !== "idle");
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), LOADING_THROTTLE_MS);
    return () => clearTimeout(timer);
  }, [busy]);

  return (
    <div
      className={`loading-bar${visible ? " loading-bar-active" : ""}`}
      role="progressbar"
      aria-label="Loading"
      aria-hidden={!visible}
      aria-busy={visible}
    />
  );
}
