import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LoadingPage } from "~/components/shell/loading-page";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Loading…" }];

/** The configured after-login address, if any (spec §2.3 /redirect-login-success). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { config } = (await requireMember(request, context)).services;
  return json({ target: config.afterLoginRedirect ?? null });
}

export default function Loading() {
  return <LoadingPage target={useLoaderData<typeof loader>().target} />;
}
