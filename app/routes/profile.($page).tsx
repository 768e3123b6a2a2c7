import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ProfileView } from "~/components/members/profile";
import { invalid } from "~/domain/errors";
import { notFoundPage, withPageErrors } from "~/lib/http.server";
import { endOtherSessions, profileOf } from "~/services/members.server";
import { requireMember, requireViewer } from "~/services/session.server";
import { redirectWithFlash } from "~/services/flash.server";

export const meta: MetaFunction = () => [{ title: "Profile" }];

/** /profile; spec §2.2 names /profile/{page?}, but no sub-page is built yet. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  if (params.page) notFoundPage();
  const { viewer } = await requireMember(request, context);
  return json(profileOf(viewer));
}

/** POST /profile with intent end-other-sessions: signs out every other browser and device. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  if (params.page) notFoundPage();
  const { viewer, services } = await requireViewer(request, context);
  await withPageErrors(async () => {
    const form = await request.formData().catch(() => null);
    if (form?.get("intent") !== "end-other-sessions") throw invalid("Unknown action");
    await endOtherSessions(services.db, viewer);
  });
  return redirectWithFlash(
    "/profile",
    { kind: "success", message: "Your other sessions are logged out." },
    services.config,
  );
}

export default function Profile() {
  return <ProfileView profile={useLoaderData<typeof loader>()} />;
}
