import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { MailingsPage } from "~/components/admin/mailings";
import { mailingsQuerySchema } from "~/lib/schemas.server";
import { mailingsAdminPage } from "~/services/mailings/admin-list.server";
import { requireAdmin } from "~/services/session.server";

// admin_: its own page at /admin/mailings, not a part drawn inside the /admin page.
export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Letters mailed from the app" }];

/** /admin/mailings?state=&member=&page=: the letters, the ones needing an admin first. A filter not known is "all". */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const query = mailingsQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return json(await mailingsAdminPage(services, query), { headers: { "Cache-Control": "no-store" } });
}

export default function Mailings() {
  return <MailingsPage data={useLoaderData<typeof loader>()} />;
}
