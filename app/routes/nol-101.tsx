import type { LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { requireMember } from "~/services/session.server";

/** Redirects to the learning site (spec §2.3). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireMember(request, context);
  const target = services.config.nol101Url;
  if (!target) throw json("The NoL 101 page of the learning site is not set up", { status: 404 });
  return redirect(target);
}
