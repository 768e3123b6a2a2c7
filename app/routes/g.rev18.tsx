import type { MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GroupPage } from "~/components/group-page";
import { groupFor } from "~/domain/community";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.group.name ?? "" }];

export async function loader() {
  return json({ group: groupFor("rev18")! });
}

export default function Group() {
  const { group } = useLoaderData<typeof loader>();
  return <GroupPage group={group} />;
}
