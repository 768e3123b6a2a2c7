import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useFrameSession } from "~/components/frame-session";
import { FrameStatus } from "~/components/frame-status";
import { useRequest } from "~/components/use-request";
import { appServices } from "~/services/app.server";

export const handle = { layout: "empty" };

export const meta: MetaFunction = () => [{ title: "Members area" }];

export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = await appServices(context);
  return json({ supportEmail: config.supportEmail, baseUrl: config.baseUrl });
}

/** The learning site's entry: it frames this page with a hand-off code. */
export default function LrmEntry() {
  const { supportEmail, baseUrl } = useLoaderData<typeof loader>();
  const { session, refresh } = useFrameSession(supportEmail);
  const check = useRequest(async () => {
    await refresh();
    return { success: "Updated status" };
  });
  return (
    <section className="card" aria-labelledby="lrm-title" aria-live="polite">
      <h1 id="lrm-title">Members area</h1>
      <FrameStatus session={session}>
        {(state) => (
          <>
            <p>
              Signed in as <strong data-testid="frame-username">{state.username}</strong>
              {state.sub_status ? ` · membership ${state.sub_status.toLowerCase()}` : null}
            </p>
            <p className="muted">
              Checked {new Date(state.login_at_checked).toLocaleTimeString()}.{" "}
              <button
                type="button"
                className="link-button"
                disabled={check.loading}
                aria-busy={check.loading || undefined}
                onClick={() => void check.run()}
              >
                {check.loading ? "Checking…" : "Check again"}
              </button>
              {check.success ? <span role="status"> {check.success}</span> : null}
              {check.error ? <span role="alert"> {check.error}</span> : null}
            </p>
            <p>
              <a href={`${baseUrl}/`} target="_blank" rel="noreferrer">
                Open the members site in a new tab
              </a>
            </p>
          </>
        )}
      </FrameStatus>
    </section>
  );
}
