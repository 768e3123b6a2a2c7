import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { RESPONDENT_TYPES } from "~/domain/nol/billing";
import { safeRedirectPath } from "~/domain/guard";
import { directoryQuerySchema } from "~/lib/schemas.server";
import { ownRequests, searchDirectory } from "~/services/respondents.server";
import { requireMember } from "~/services/session.server";
import { DataTable } from "~/components/ui/record-table";
import { PlainField } from "~/components/forms/inputs";

export const meta: MetaFunction = () => [{ title: "Respondents" }];

/** /respondents: the community's known respondents, searchable by name, kind and place. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, services } = await requireMember(request, context);
  const params = new URL(request.url).searchParams;
  const query = directoryQuerySchema.parse(Object.fromEntries(params));
  // Opened from a notice's step page: each respondent can be put in that notice.
  const target = safeRedirectPath(params.get("for"), "");
  const forStep = target.startsWith("/nol/") ? target : null;
  return json({
    query,
    forStep,
    results: await searchDirectory(services, query),
    requests: await ownRequests(services, viewer),
    admin: viewer.user.admin,
  });
}

export default function Respondents() {
  const { query, results, requests, admin, forStep } = useLoaderData<typeof loader>();
  const pickHref = (id: number) => `${forStep}${forStep?.includes("?") ? "&" : "?"}respondent=${id}`;
  return (
    <section className="card card-wide" aria-labelledby="respondents-title">
      <h1 id="respondents-title">Respondents</h1>
      <p>
        The respondents the community knows, with how many notices name each. Missing one?{" "}
        <Link to="/suggest-a-new-respondent">Suggest a new respondent</Link>.
        {admin ? (
          <>
            {" "}
            <Link to="/respondents/review">Review the suggestions and requests</Link>.
          </>
        ) : null}
      </p>
      {forStep ? (
        <p>
          Choose a respondent for your notice, or <Link to={forStep}>go back to it</Link>.
        </p>
      ) : null}
      <Form method="get" className="form" role="search" aria-label="Respondents">
        {forStep ? <input type="hidden" name="for" value={forStep} /> : null}
        <PlainField id="q" label="Name" name="q" defaultValue={query.q ?? ""} maxLength={120} />
        <div className="field">
          <label htmlFor="type">Kind</label>
          <select id="type" name="type" defaultValue={query.type ?? ""}>
            <option value="">Any</option>
            {RESPONDENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <PlainField id="place" label="Place" name="place" defaultValue={query.place ?? ""} maxLength={120} />
        <div className="actions">
          <button type="submit" className="button button-primary">
            Search
          </button>
        </div>
      </Form>
      {results.length === 0 ? (
        <p role="status">No respondent matches.</p>
      ) : (
        <DataTable
          caption="Respondents found"
          rows={results}
          columns={[
            {
              header: "Name",
              rowHeader: true,
              cell: (r) => (
                <>
                  {r.name}
                  {r.address ? <div className="muted">{r.address}</div> : null}
                </>
              ),
            },
            { header: "Kind", cell: (r) => r.type },
            { header: "Agency or company", cell: (r) => r.agency ?? "—" },
            { header: "Place", cell: (r) => r.place ?? "—" },
            { header: "Notices", cell: (r) => r.notices },
            {
              header: "Action",
              unlabelled: true,
              cell: (r) =>
                forStep ? (
                  <Link to={pickHref(r.id)} aria-label={`Use ${r.name} in my notice`}>
                    Use in my notice
                  </Link>
                ) : (
                  <Link to={`/respondent-reassessment?respondent=${r.id}`} aria-label={`Ask to reassess ${r.name}`}>
                    Ask to reassess
                  </Link>
                ),
            },
          ]}
        />
      )}
      {requests.length > 0 ? (
        <>
          <h2>Your suggestions and requests</h2>
          <ul>
            {requests.map((r) => (
              <li key={r.viewLink}>
                <Link to={r.viewLink}>
                  {r.kind} #{r.number} {r.name}
                </Link>
                : {r.status ?? "sent"}
                {r.note ? ` — ${r.note}` : ""}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
