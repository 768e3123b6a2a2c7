import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LoadingPage } from "~/components/shell/loading-page";
import { appServices } from "~/services/app.server";

export const meta: MetaFunction = () => [{ title: "Loading…" }];

/** The configured after-login address, if any (spec §2.3 /redirect-login-success). */
export async function loader({ context }: LoaderFunctionArgs) {
  const { config } = await appServices(context);
  return json({ target: config.afterLoginRedirect ?? null });
}

export default function Loading() {
  return <LoadingPage target={useLoaderData<typeof loader>().target} />;
}
