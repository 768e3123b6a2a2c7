import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { withPageErrors } from "~/lib/http.server";
import { nolAddress } from "~/services/nol/page-address.server";
import { notarizePage } from "~/services/nol/pages.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Notarize online" }];

/** Which of the member's versions can be notarized online now: those whose next step offers it. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const { address } = nolAddress(request, params);
  if (!params.cause) throw redirect(`/nol/${address.segment}`);
  return withPageErrors(async () => json(await notarizePage(services, viewer, address, params.cause!)));
}

export default function Notarize() {
  const { cause, causeHref, versions } = useLoaderData<typeof loader>();
  const ready = versions.filter((v) => v.notarize);
  return (
    <section className="card" aria-labelledby="notarize-title">
      <p>
        <Link to={causeHref}>{cause}</Link>
      </p>
      <h1 id="notarize-title">Notarize online</h1>
      <p>
        A notice can be notarized online at its notice and mailing steps, and a true bill at its mailing step. It needs
        the current notice of the version.
      </p>
      {ready.length === 0 ? (
        <p>None of your versions is at a step that can be notarized now.</p>
      ) : (
        <ul>
          {ready.map((v) => (
            <li key={v.version}>
              {v.version}: {v.step}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
