import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { visitorPayment } from "~/services/billing/pages.server";
import { optionalViewer } from "~/services/session.server";

export { Home as default } from "~/components/community/home";

/** A visitor who paid before signing up is asked to continue signup (spec §2.4's home warning). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await optionalViewer(request, context);
  return json({ payment: viewer ? null : await visitorPayment(services, request) });
}

export const handle = { layout: "home" };
