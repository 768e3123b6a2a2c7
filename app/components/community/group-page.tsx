import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { CommunityGroup } from "~/domain/community";
import { JoinLinks } from "./join-links";

type GroupData = { group: CommunityGroup };

export const groupMeta: MetaFunction = ({ data }) => [{ title: (data as GroupData | undefined)?.group.name ?? "" }];

/** The page of a community group (/g/{group}). */
export function GroupPage() {
  const { group } = useLoaderData<GroupData>();
  return (
    <section className="card" aria-labelledby="group-title">
      <h1 id="group-title">{group.name}</h1>
      <p className="lead">{group.description}</p>
      <JoinLinks />
    </section>
  );
}
