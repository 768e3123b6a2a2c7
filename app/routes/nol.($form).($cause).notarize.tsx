import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { NotarizePageView } from "~/components/notary/notarize-page";
import { withPageErrors } from "~/lib/http.server";
import { readForm } from "~/lib/submission.server";
import { nolAddress } from "~/services/nol/page-address.server";
import { notarizePage, notarizePageAction } from "~/services/notary/page.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Notarize online" }];

/** The member's own notices of a cause, the current NoL's preview and its notarize (spec §4 "Notarize flow"). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address, query } = nolAddress(request, params);
  if (!params.cause) throw redirect(`/nol/${address.segment}`);
  return withPageErrors(async () =>
    json(await notarizePage(services, viewer, address, params.cause!, query.version), {
      headers: { "Cache-Control": "private, no-store" },
    }),
  );
}

/** "Notarize online", "Refresh status", "Update" and "Delete" as plain form posts (the page without JavaScript). */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address } = nolAddress(request, params);
  if (!params.cause) throw redirect(`/nol/${address.segment}`);
  const { status, outcome } = await notarizePageAction(services, viewer, await readForm(request));
  return json(outcome, { status });
}

export default function Notarize() {
  return <NotarizePageView data={useLoaderData<typeof loader>()} outcome={useActionData<typeof action>() ?? null} />;
}
