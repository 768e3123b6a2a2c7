import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GroupPending } from "~/components/community/group-pending";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Community group pending" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await requireMember(request, context);
  return json({ email: viewer.member.email });
}

export default function CommunityGroupPending() {
  return <GroupPending email={useLoaderData<typeof loader>().email} />;
}
