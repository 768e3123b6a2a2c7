import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CauseList } from "~/components/nol/cause-list";
import { withPageErrors } from "~/lib/http.server";
import { nolAddress } from "~/services/nol/page-address.server";
import { causesPage } from "~/services/nol/pages.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Choose a cause" }];

/** /nol/{form}: the causes of the owner's country (spec §4 "Cause status per country"). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address } = nolAddress(request, params);
  return withPageErrors(async () => json(await causesPage(services, viewer, address)));
}

export default function NolCauses() {
  return <CauseList data={useLoaderData<typeof loader>()} />;
}
