import { useEffect } from "react";

/** /loading: shown while the top window goes to the configured after-login address (spec §2.3). */
export function LoadingPage({ target }: { target: string | null }) {
  useEffect(() => {
    if (target && window.top) window.top.location.href = target;
  }, [target]);
  return (
    <section className="card" aria-labelledby="loading-title" aria-busy="true">
      <h1 id="loading-title">Loading…</h1>
      <div className="progress" role="progressbar" aria-label="Loading" />
      {target ? (
        <p className="muted">
          If nothing happens,{" "}
          <a href={target} target="_top">
            continue here
          </a>
          .
        </p>
      ) : (
        <p className="muted">
          <a href="/">Continue to the community home</a>
        </p>
      )}
    </section>
  );
}
