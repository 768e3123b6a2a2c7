import type { LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { LearningSiteNotSetUp, notSetUpMeta, type NotSetUp } from "~/components/lrm/not-set-up";
import { requireMember } from "~/services/session.server";

/** Redirects to the learning site (spec §2.3). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireMember(request, context);
  const target = services.config.nol101Url;
  if (!target) return json<NotSetUp>({ title: "NoL 101 is not set up", what: "NoL 101" }, { status: 404 });
  return redirect(target);
}

export const meta = notSetUpMeta;
export default LearningSiteNotSetUp;
