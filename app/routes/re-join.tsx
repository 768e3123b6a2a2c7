import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { SubmitButton } from "~/components/ui/submit-button";
import { rejoin } from "~/services/accounts.server";
import { requireViewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Re-join" }];

const ACTIVE = new Set(["ACTIVE", "TRIALING"]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await requireViewer(request, context);
  return json({ status: viewer.subscription?.status ?? null, active: ACTIVE.has(viewer.subscription?.status ?? "") });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireViewer(request, context);
  if (ACTIVE.has(viewer.subscription?.status ?? "")) throw redirect("/");
  await rejoin(services, viewer);
  return redirect("/setup");
}

export default function Rejoin() {
  const { status, active } = useLoaderData<typeof loader>();
  return (
    <section className="card" aria-labelledby="rejoin-title">
      <h1 id="rejoin-title">{active ? "Your membership is active" : "Welcome back"}</h1>
      {active ? (
        <p>
          There is nothing to do: your membership is active. <Link to="/">Go to the community home</Link>.
        </p>
      ) : (
        <>
          <p>
            {status
              ? `Your membership is ${status.toLowerCase().replace(/_/g, " ")}.`
              : "You have no membership at the moment."}{" "}
            Re-join to use the notice creator and the rest of the site again; your notices and documents are kept.
          </p>
          <Form method="post" className="actions">
            <SubmitButton pendingText="One moment…">Re-join</SubmitButton>
          </Form>
        </>
      )}
    </section>
  );
}
