import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { VersionList } from "~/components/nol/version-list";
import { withPageErrors } from "~/lib/http.server";
import { nolAddress } from "~/services/nol/page-address.server";
import { versionsPage } from "~/services/nol/pages.server";
import { requireMember, siteCookies } from "~/services/session.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Notice of Liability" }];

/** /nol/{form}/{cause}: the owner's versions of a cause, their next steps, and the selection (spec §4). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address, query } = nolAddress(request, params);
  const cookie = siteCookies(services.config).nolSelected;
  const remembered = await cookie.parse(request.headers.get("cookie"));
  const { page, remember } = await withPageErrors(() =>
    versionsPage(services, viewer, address, {
      cause: params.cause ?? "",
      href: query.href,
      auto: query.auto,
      remembered: typeof remembered === "string" ? remembered : null,
      version: query.version,
    }),
  );
  const headers = new Headers();
  if (remember?.set) headers.append("Set-Cookie", await cookie.serialize(remember.set));
  if (remember?.clear) headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
  return json({ ...page, badVersion: query.badVersion }, { headers });
}

export default function NolVersions() {
  return <VersionList data={useLoaderData<typeof loader>()} />;
}
