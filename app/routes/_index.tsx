import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { visitorPayment } from "~/services/billing/pages.server";
import { memberHome } from "~/services/home.server";
import { optionalViewer } from "~/services/session.server";

export { Home as default } from "~/components/community/home";

/**
 * A visitor who paid before signing up is asked to continue signup (spec §2.4's home warning);
 * a member who has finished setup sees what they can do next.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await optionalViewer(request, context);
  if (!viewer) return json({ payment: await visitorPayment(services, request), member: null });
  const member = viewer.member.needsSetup ? null : await memberHome(services, viewer);
  return json({ payment: null, member });
}

export const handle = { layout: "home" };
