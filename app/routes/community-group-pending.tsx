import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GroupPending } from "~/components/community/group-pending";
import { memberGroupStanding } from "~/services/community-group.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Community group membership" }];

/** Says "pending" only to a member whose group membership is: joined, or none, for everyone else. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  return json({ email: viewer.member.email, standing: await memberGroupStanding(services.db, viewer.member.id) });
}

export default function CommunityGroupPending() {
  const { email, standing } = useLoaderData<typeof loader>();
  return <GroupPending email={email} standing={standing} />;
}
