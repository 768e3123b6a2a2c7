import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { SubmitButton } from "~/components/ui/submit-button";
import { rejoinStanding } from "~/domain/account";
import { rejoin } from "~/services/accounts.server";
import { requireViewer, type Viewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Re-join" }];

function standingOf(viewer: Viewer) {
  return rejoinStanding({
    needsSetup: viewer.member.needsSetup,
    subscriptionStatus: viewer.subscription?.status ?? null,
  });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await requireViewer(request, context);
  return json({ status: viewer.subscription?.status ?? null, standing: standingOf(viewer) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireViewer(request, context);
  const standing = standingOf(viewer);
  if (standing === "in-setup") throw redirect("/setup");
  if (standing !== "lapsed") throw redirect("/re-join");
  await rejoin(services, viewer);
  return redirect("/setup");
}

export default function Rejoin() {
  const { status, standing } = useLoaderData<typeof loader>();
  if (standing !== "lapsed") {
    return (
      <section className="card" aria-labelledby="rejoin-title">
        <h1 id="rejoin-title">Your membership is in order</h1>
        <p>
          There is nothing to re-join. <Link to="/">Go to the community home</Link>.
        </p>
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="rejoin-title">
      <h1 id="rejoin-title">Welcome back</h1>
      <p>
        Your membership is {status?.toLowerCase().replace(/_/g, " ")}. Re-join to use the notice creator and the rest of
        the site again; your notices and documents are kept.
      </p>
      <Form method="post" className="actions">
        <SubmitButton pendingText="One moment…">Re-join</SubmitButton>
      </Form>
    </section>
  );
}
