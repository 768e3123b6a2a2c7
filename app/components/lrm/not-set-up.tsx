import type { MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";

/** What the learning-site pages say when the learning site is not configured: no link to follow. */
export type NotSetUp = { what: string; title: string };

export const notSetUpMeta: MetaFunction = ({ data }) => [{ title: (data as NotSetUp | undefined)?.title ?? "" }];

export function LearningSiteNotSetUp() {
  const { what, title } = useLoaderData<NotSetUp>();
  return (
    <section className="card" aria-labelledby="not-set-up-title">
      <h1 id="not-set-up-title">{title}</h1>
      <p>
        {what} is on the community&apos;s learning site, and this site has not been linked to one yet. An administrator
        sets its address (<code>LRM_URL</code> and the page addresses) in the site&apos;s settings.
      </p>
      <p>
        <Link to="/">Go to the community home</Link>
      </p>
    </section>
  );
}
