import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterLogin } from "~/domain/guard";
import { pageRedirect } from "~/lib/http.server";
import { appServices } from "~/services/app.server";
import { siteCookies } from "~/services/session.server";

/** spec §2.3: SSO first, then the remembered path, then the configured after-login redirect, then /. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { config } = await appServices(context);
  const cookies = siteCookies(config);
  const header = request.headers.get("cookie");
  const sso = await cookies.sso.parse(header);
  const remembered = await cookies.afterLogin.parse(header);
  const decision = afterLogin({
    ssoSearch: typeof sso === "string" ? sso : null,
    remembered: typeof remembered === "string" ? remembered : null,
    afterLoginRedirect: config.afterLoginRedirect ?? null,
  });
  const headers = new Headers();
  headers.append("Set-Cookie", await cookies.afterLogin.serialize("", { maxAge: 0 }));
  headers.append("Set-Cookie", await cookies.sso.serialize("", { maxAge: 0 }));
  return pageRedirect(request, decision.kind === "top" ? "/loading" : decision.to, { headers });
}
