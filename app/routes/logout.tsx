import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form } from "@remix-run/react";
import { SubmitButton } from "~/components/ui/submit-button";
import { actorOf } from "~/services/accounts.server";
import { appServices } from "~/services/app.server";
import { audit } from "~/services/audit.server";
import { getViewer, revokeSession, siteCookies } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Log out" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const viewer = await getViewer(request, services).catch(() => null);
  if (!viewer) throw redirect("/");
  return json({});
}

export async function action({ request, context }: ActionFunctionArgs) {
  const services = await appServices(context);
  const viewer = await getViewer(request, services).catch(() => null);
  if (viewer) {
    await revokeSession(services.db, viewer.session.id);
    await audit(services.db, actorOf(viewer), "logout", "session", null);
  }
  return redirect("/redirect-logout-success", {
    headers: { "Set-Cookie": await siteCookies(services.config).session.serialize("", { maxAge: 0 }) },
  });
}

export default function Logout() {
  return (
    <section className="card" aria-labelledby="logout-title">
      <h1 id="logout-title">Log out</h1>
      <p>You will need your password to come back.</p>
      <Form method="post" className="actions">
        <SubmitButton pendingText="Logging out…">Log out</SubmitButton>
      </Form>
    </section>
  );
}
