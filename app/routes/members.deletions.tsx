import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PendingDeletions } from "~/components/admin/pending-deletions";
import { pendingDeletions } from "~/services/member-data/deletion.server";
import { requireAdmin } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Deleted accounts" }];

/** /members/deletions: the accounts deleted by their members and waiting for their erasure (decision 051). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  return json({ deletions: await pendingDeletions(services) }, { headers: { "Cache-Control": "no-store" } });
}

export default function Deletions() {
  const { deletions } = useLoaderData<typeof loader>();
  return (
    <section className="card" aria-labelledby="deletions-title">
      <h1 id="deletions-title">Deleted accounts</h1>
      {deletions.length === 0 ? <p>No deleted account is waiting for its erasure.</p> : null}
      <PendingDeletions rows={deletions} />
    </section>
  );
}
