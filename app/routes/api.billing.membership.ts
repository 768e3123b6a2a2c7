import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { withApiErrors } from "~/lib/http.server";
import { readOnly } from "~/lib/json-body.server";
import { membershipOf } from "~/services/billing/account.server";
import { requireApiMember, withState } from "~/services/session.server";

/**
 * GET /api/billing/membership: the member's membership (plan, status, renewal), on either
 * carrier (the session cookie, or the state headers inside the learning site's frame).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireApiMember(request, context);
  return withApiErrors(async () => {
    const membership = await membershipOf(services, viewer.member.id);
    const response = json({ membership }, { headers: { "Cache-Control": "no-store" } });
    return withState(response, request, viewer, services.config);
  });
}

export const action = readOnly;
