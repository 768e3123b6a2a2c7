import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { LogoutView } from "~/components/identity/logout";
import { logOut } from "~/services/auth.server";
import { optionalViewer, siteCookies } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Log out" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await optionalViewer(request, context);
  if (!viewer) throw redirect("/");
  return json({});
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await optionalViewer(request, context);
  if (viewer) await logOut(services, viewer);
  return redirect("/redirect-logout-success", {
    headers: { "Set-Cookie": await siteCookies(services.config).session.serialize("", { maxAge: 0 }) },
  });
}

export default function Logout() {
  return <LogoutView />;
}
