import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RejoinView } from "~/components/identity/rejoin";
import { rejoinStanding } from "~/lib/schemas.server";
import { requireMember, requireViewer, type Viewer } from "~/services/session.server";
import { rejoin } from "~/services/setup.server";

export const meta: MetaFunction = () => [{ title: "Re-join" }];

function standingOf(viewer: Viewer) {
  return rejoinStanding({
    needsSetup: viewer.member.needsSetup,
    subscriptionStatus: viewer.subscription?.status ?? null,
  });
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await requireMember(request, context);
  return json({ status: viewer.subscription?.status ?? null, standing: standingOf(viewer) });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireViewer(request, context);
  const standing = standingOf(viewer);
  if (standing === "in-setup") throw redirect("/setup");
  if (standing !== "lapsed") throw redirect("/re-join");
  await rejoin(services, viewer);
  return redirect("/setup");
}

export default function Rejoin() {
  const { status, standing } = useLoaderData<typeof loader>();
  return <RejoinView status={status} standing={standing} />;
}
