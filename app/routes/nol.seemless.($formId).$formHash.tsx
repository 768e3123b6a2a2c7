import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { FormEntryView } from "~/components/forms/entry-view";
import { EntryPage } from "~/components/nol/entry-page";
import { seamlessParamsSchema, SERVICE_FORMS } from "~/lib/schemas.server";
import { withPageErrors } from "~/lib/http.server";
import { formEntryPage } from "~/services/form-entries.server";
import { entryQuery, seamlessPage } from "~/services/nol/seamless.server";
import { requireMember } from "~/services/session.server";

/**
 * The seamless page, /nol/seemless/{form_id}/{form_hash}?entry=… (spec §2.2). The file name
 * keeps the spec's spelling because Remix maps file names to URLs; the code says "seamless"
 * and builds these addresses from SEAMLESS_PATH (domain/nol/addresses.ts).
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: (data?.kind === "form" ? data.title : data?.label) ?? "Notice" },
];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { formId, formHash } = seamlessParamsSchema.parse(params);
  const entry = new URL(request.url).searchParams.get("entry");
  return withPageErrors(async () => {
    // The community's other forms keep links of the same shape.
    if (formId !== undefined && SERVICE_FORMS.includes(Number(formId))) {
      const { EntryId } = entryQuery(entry);
      return json(await formEntryPage(services, viewer, { formId: Number(formId), hash: formHash, entryId: EntryId }));
    }
    return json(await seamlessPage(services, viewer, { formId, formHash, entry }));
  });
}

export default function SeamlessEntry() {
  const data = useLoaderData<typeof loader>();
  return data.kind === "form" ? <FormEntryView entry={data} /> : <EntryPage data={data} />;
}
