import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useFrameSession } from "~/components/frame-session";
import { FrameStatus } from "~/components/frame-status";
import { appServices } from "~/services/app.server";

export const handle = { layout: "empty" };

export const meta: MetaFunction = () => [{ title: "Members area" }];

export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = await appServices(context);
  return json({ supportEmail: config.supportEmail });
}

/** The members' pages the learning site can show in its frame. */
export default function LrmFrame() {
  const { supportEmail } = useLoaderData<typeof loader>();
  const { session } = useFrameSession(supportEmail);
  return (
    <section className="card" aria-labelledby="frame-title" aria-live="polite">
      <h1 id="frame-title">Your membership</h1>
      <FrameStatus session={session}>
        {(state) => (
          <ul>
            <li>
              Member: <strong>{state.username}</strong>
            </li>
            <li>Membership: {state.sub_status ? state.sub_status.toLowerCase() : "none"}</li>
            <li>
              <a href="/embed/nols">Your notices</a>
            </li>
            <li>
              <a href="/embed/subscription">Your subscription</a>
            </li>
          </ul>
        )}
      </FrameStatus>
    </section>
  );
}
