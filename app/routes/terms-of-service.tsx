import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ContentPage } from "~/components/content-page";
import { contentPageLoader } from "~/services/content-loader.server";

export const handle = { layout: "logo-left" };

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "" }];

export async function loader({ context }: LoaderFunctionArgs) {
  return contentPageLoader(context, "terms-of-service");
}

export default function Page() {
  const { html } = useLoaderData<typeof loader>();
  return <ContentPage html={html} />;
}
