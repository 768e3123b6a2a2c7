import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { communityParamsSchema } from "~/lib/schemas.server";
import { CommunityPage } from "~/components/community/community-page";
import { communityFor } from "~/domain/community";
import { notFoundPage } from "~/lib/http.server";
import { appServices } from "~/services/app.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Community" }];

/** /community (about) and /community/join (how to join). */

export async function loader({ params, context }: LoaderFunctionArgs) {
  const parsed = communityParamsSchema.safeParse(params);
  if (!parsed.success) notFoundPage();
  const { config } = await appServices(context);
  const community = communityFor(config.community);
  const page = parsed.data.action ?? ("about" as const);
  return json({ community, page, title: page === "join" ? `Join ${community.name}` : community.name });
}

export default function Community() {
  const { community, page } = useLoaderData<typeof loader>();
  return <CommunityPage community={community} page={page} />;
}
