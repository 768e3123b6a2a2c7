import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { invariantResponse } from "~/lib/http.server";
import { ssoTarget } from "~/services/learning-site.server";
import { optionalViewer, siteCookies } from "~/services/session.server";

/**
 * /sso signs the member into the learning site. A visitor's SSO parameters are kept while
 * they log in; /redirect-login-success brings them back here (spec §2.3).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await optionalViewer(request, context);
  const url = new URL(request.url);
  if (!viewer) {
    return redirect("/login", {
      headers: { "Set-Cookie": await siteCookies(services.config).sso.serialize(url.search.slice(0, 1_000) || "?") },
    });
  }
  const target = ssoTarget(services, viewer.user.username, url.searchParams);
  invariantResponse(target, "Single sign-on to the learning site is not set up", { status: 404 });
  return redirect(target);
}
