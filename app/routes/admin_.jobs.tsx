import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { formatDateTime } from "~/lib/format";
import { JOB_STATES, listJobs, type JobSummary } from "~/services/jobs.server";
import { requireAdmin } from "~/services/session.server";

// admin_: its own page at /admin/jobs, not a part drawn inside the /admin page.
export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Background jobs" }];

const querySchema = z.object({ state: z.enum(JOB_STATES).optional() });

/** The background jobs for admins: the ones that gave up, then the latest, optionally in one state. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) throw json("This page could not be found", { status: 404 });
  const { state } = query.data;
  const [failed, recent] = await Promise.all([
    listJobs(services, { state: "failed", limit: 50 }),
    listJobs(services, { state, limit: 100 }),
  ]);
  return json({ state: state ?? null, failed, recent });
}

type Row = Omit<JobSummary, "createdOn" | "startedOn" | "completedOn"> & {
  createdOn: string;
  startedOn: string | null;
  completedOn: string | null;
};

const when = (iso: string | null) => (iso ? formatDateTime(iso) : "–");

function JobTable({ rows, caption }: { rows: Row[]; caption: string }) {
  return (
    <div className="table-scroll">
      <table className="data" aria-label={caption}>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">State</th>
            <th scope="col">Tries</th>
            <th scope="col">Queued</th>
            <th scope="col">Last started</th>
            <th scope="col">Ended</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((job) => (
            <tr key={job.id}>
              <td>
                {job.name}
                <br />
                <code className="muted">{job.id}</code>
              </td>
              <td>{job.state}</td>
              <td>
                {job.retryCount + (job.startedOn ? 1 : 0)} of {job.retryLimit + 1}
              </td>
              <td>{when(job.createdOn)}</td>
              <td>{when(job.startedOn)}</td>
              <td>{when(job.completedOn)}</td>
              <td>{job.error ? <code>{job.error}</code> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function Jobs() {
  const { state, failed, recent } = useLoaderData<typeof loader>();
  return (
    <section className="card card-wide" aria-labelledby="jobs-title">
      <p>
        <Link to="/admin">Admin</Link>
      </p>
      <h1 id="jobs-title">Background jobs</h1>
      <p className="muted">
        A job that fails is tried again later, each time after a longer wait; once its tries are used up it is marked
        failed and listed here until it is archived.
      </p>
      <h2>Failed</h2>
      {failed.length === 0 ? <p>No job has failed.</p> : <JobTable rows={failed} caption="Failed jobs" />}
      <h2>Latest{state ? `: ${state}` : ""}</h2>
      <p aria-label="Show only jobs in one state">
        {[null, ...JOB_STATES].map((s, i) => (
          <span key={s ?? "all"}>
            {i > 0 ? " · " : null}
            {s === state ? (
              <strong>{s ?? "all"}</strong>
            ) : (
              <Link to={s ? `/admin/jobs?state=${s}` : "/admin/jobs"}>{s ?? "all"}</Link>
            )}
          </span>
        ))}
      </p>
      {recent.length === 0 ? <p>No jobs yet.</p> : <JobTable rows={recent} caption="Latest jobs" />}
    </section>
  );
}
