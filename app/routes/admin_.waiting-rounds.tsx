import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { WaitingRoundsPage } from "~/components/admin/waiting-rounds";
import { waitingRounds } from "~/services/nol/version-timelines.server";
import { requireAdmin } from "~/services/session.server";

// admin_: its own page at /admin/waiting-rounds, not a part drawn inside the /admin page.
export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Versions whose next round could go out" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  return json({ rows: await waitingRounds(services) });
}

export default function WaitingRounds() {
  const { rows } = useLoaderData<typeof loader>();
  return <WaitingRoundsPage rows={rows} />;
}
