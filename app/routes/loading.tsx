import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { appServices } from "~/services/app.server";

export const meta: MetaFunction = () => [{ title: "Loading…" }];

/** Shown while the top window goes to the configured after-login address (spec §2.3). */
export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = await appServices(context);
  return json({ target: config.afterLoginRedirect ?? null });
}

export default function Loading() {
  const { target } = useLoaderData<typeof loader>();
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
