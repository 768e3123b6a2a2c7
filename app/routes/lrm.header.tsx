import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useFrameSession } from "~/components/frame-session";
import { FrameStatus } from "~/components/frame-status";
import { appServices } from "~/services/app.server";

export const handle = { layout: "empty" };

export const meta: MetaFunction = () => [{ title: "Member" }];

export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = await appServices(context);
  return json({ supportEmail: config.supportEmail, baseUrl: config.baseUrl });
}

/** A one-line member bar for the learning site's header. */
export default function LrmHeader() {
  const { supportEmail, baseUrl } = useLoaderData<typeof loader>();
  const { session } = useFrameSession(supportEmail);
  return (
    <div className="frame-header" aria-live="polite">
      <FrameStatus session={session}>
        {(state) => (
          <span>
            {state.agent ? `WARNING, representing: ${state.agent} · ` : null}
            <strong>{state.agent ?? state.username}</strong> ·{" "}
            <a href={`${baseUrl}/profile`} target="_blank" rel="noreferrer">
              Profile
            </a>
          </span>
        )}
      </FrameStatus>
    </div>
  );
}
