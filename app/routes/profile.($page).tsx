import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ProfileFacts } from "~/components/members/member-facts";
import { notFoundPage } from "~/lib/http.server";
import { profileOf } from "~/services/members.server";
import { requireViewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Profile" }];

/** /profile; spec §2.2 names /profile/{page?}, but no sub-page is built yet. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  if (params.page) notFoundPage();
  const { viewer } = await requireViewer(request, context);
  return json(profileOf(viewer));
}

export default function Profile() {
  const profile = useLoaderData<typeof loader>();
  return (
    <section className="card" aria-labelledby="profile-title">
      <h1 id="profile-title">{profile.username}</h1>
      <ProfileFacts member={profile} />
    </section>
  );
}
