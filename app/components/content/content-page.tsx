import type { MetaFunction, SerializeFrom } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { contentPageLoader } from "~/services/content-loader.server";

type ContentData = SerializeFrom<typeof contentPageLoader>;

export const contentMeta: MetaFunction = ({ data }) => [{ title: (data as ContentData | undefined)?.title ?? "" }];

/** A page of the community's Markdown content, rendered on the server. */
export function ContentPage() {
  const { html, backTo } = useLoaderData<ContentData>();
  return (
    <>
      <article className="card prose" dangerouslySetInnerHTML={{ __html: html }} />
      {backTo ? (
        <p className="card-footer-link">
          <Link to={backTo}>Back to sign-up</Link>
        </p>
      ) : null}
    </>
  );
}
