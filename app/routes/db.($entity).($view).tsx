import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { recordParamsSchema } from "~/lib/schemas.server";
import { Records } from "~/components/admin/records";
import { withPageErrors } from "~/lib/http.server";
import { recordView } from "~/services/record-views.server";
import { recordViewInWords } from "~/services/record-words.server";
import { requireAdmin } from "~/services/session.server";

export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Records" }];

/** Read-only views of the site's own records for admins: /db, /db/mail_outbox[/id], /db/audit_log… */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const { entity, view } = recordParamsSchema.parse(params);
  const search = new URL(request.url).searchParams;
  return json(recordViewInWords(await withPageErrors(() => recordView(services, entity, view, search))), {
    headers: { "Cache-Control": "no-store" },
  });
}

export default function RecordsPage() {
  return <Records data={useLoaderData<typeof loader>()} />;
}
