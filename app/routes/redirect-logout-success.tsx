import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { appServices } from "~/services/app.server";
import { siteCookies } from "~/services/session.server";

/** spec §2.3: clears the remembered target and goes to /. */
export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = await appServices(context);
  return redirect("/", {
    headers: { "Set-Cookie": await siteCookies(config).afterLogin.serialize("", { maxAge: 0 }) },
  });
}
