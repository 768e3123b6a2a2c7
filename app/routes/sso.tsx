import type { LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { appServices } from "~/services/app.server";
import { ssoTarget } from "~/services/learning-site.server";
import { getViewer, siteCookies } from "~/services/session.server";

/**
 * /sso signs the member into the learning site. A visitor's SSO parameters are kept while
 * they log in; /redirect-login-success brings them back here (spec §2.3).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const services = await appServices(context);
  const url = new URL(request.url);
  const viewer = await getViewer(request, services).catch(() => null);
  if (!viewer) {
    return redirect("/login", {
      headers: { "Set-Cookie": await siteCookies(services.config).sso.serialize(url.search.slice(0, 1_000) || "?") },
    });
  }
  const target = ssoTarget(services, viewer.user.username, url.searchParams);
  if (!target) throw json("Single sign-on to the learning site is not set up", { status: 404 });
  return redirect(target);
}
