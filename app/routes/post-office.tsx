import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { invariantResponse } from "~/lib/http.server";
import { requireMember } from "~/services/session.server";

/** Redirects to the learning site (spec §2.3). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireMember(request, context);
  const target = services.config.postOfficeUrl;
  invariantResponse(target, "The post office of the learning site is not set up");
  return redirect(target);
}
