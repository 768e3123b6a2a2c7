import type { LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { LearningSiteNotSetUp, notSetUpMeta, type NotSetUp } from "~/components/lrm/not-set-up";
import { requireMember } from "~/services/session.server";

/** Redirects to the learning site (spec §2.3). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireMember(request, context);
  const target = services.config.postOfficeUrl;
  if (!target)
    return json<NotSetUp>({ title: "The post office is not set up", what: "The post office" }, { status: 404 });
  return redirect(target);
}

export const meta = notSetUpMeta;
export default LearningSiteNotSetUp;
