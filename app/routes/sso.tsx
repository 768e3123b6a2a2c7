import type { LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { LearningSiteNotSetUp, notSetUpMeta, type NotSetUp } from "~/components/lrm/not-set-up";
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
  if (!target) {
    return json<NotSetUp>(
      { title: "Single sign-on is not set up", what: "Signing in to the courses" },
      { status: 404 },
    );
  }
  return redirect(target);
}

export const meta = notSetUpMeta;
export default LearningSiteNotSetUp;
