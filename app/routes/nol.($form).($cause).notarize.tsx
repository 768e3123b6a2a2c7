import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { formFromParam } from "~/domain/nol/entries";
import { requireCause } from "~/services/nol-pages.server";
import { entriesOf, versionsOf, versionState } from "~/services/nol.server";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Notarize online" }];

/** Which of the member's versions can be notarized online now: those whose next step offers it. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  if (!params.form || !formFromParam(params.form)) throw redirect("/nol/NotFound");
  if (!params.cause) throw redirect(`/nol/${params.form}`);
  const cause = await requireCause(services, viewer.member, params.cause);
  const rows = await entriesOf(services.db, viewer.member.id, cause.code);
  const versions = versionsOf(rows).map((version) => {
    const { step } = versionState(rows, version);
    return { version, step: step.label, notarize: step.notarize };
  });
  return json({ cause: cause.name, causeHref: `/nol/${params.form}/${cause.slug}`, versions });
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
