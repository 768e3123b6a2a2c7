import { Link } from "@remix-run/react";
import { inWords } from "~/domain/vocabularies";
import { formatDateTime } from "~/lib/format";
import { DataTable, type Column } from "~/components/ui/record-table";
import { AdminSection } from "~/components/admin/admin-section";

export type JobRow = {
  id: string;
  name: string;
  state: string;
  tries: number;
  maxTries: number;
  createdOn: string;
  startedOn: string | null;
  completedOn: string | null;
  error: string | null;
};

const when = (iso: string | null) => (iso ? formatDateTime(iso) : "–");

const COLUMNS: Column<JobRow>[] = [
  {
    header: "Job",
    cell: (job) => (
      <>
        {inWords("job", job.name)} <span className="muted">({job.name})</span>
        <br />
        <code className="muted">{job.id}</code>
      </>
    ),
  },
  { header: "State", cell: (job) => inWords("jobState", job.state) },
  { header: "Tries", cell: (job) => `${job.tries} of ${job.maxTries}` },
  { header: "Queued", cell: (job) => when(job.createdOn) },
  { header: "Last started", cell: (job) => when(job.startedOn) },
  { header: "Ended", cell: (job) => when(job.completedOn) },
  { header: "Error", cell: (job) => (job.error ? <code>{job.error}</code> : null) },
];

function JobTable({ rows, caption }: { rows: JobRow[]; caption: string }) {
  return <DataTable rows={rows} columns={COLUMNS} caption={caption} hiddenCaption />;
}

/** The background jobs for admins: the ones that gave up, then the latest, optionally in one state. */
export function JobsPage({
  state,
  states,
  failed,
  recent,
}: {
  state: string | null;
  states: readonly string[];
  failed: JobRow[];
  recent: JobRow[];
}) {
  return (
    <AdminSection id="jobs-title" title="Background jobs">
      <p className="muted">
        A job that fails is tried again later, each time after a longer wait; once its tries are used up it is marked
        failed and listed here until it is archived.
      </p>
      <h2>Failed</h2>
      {failed.length === 0 ? <p>No job has failed.</p> : <JobTable rows={failed} caption="Failed jobs" />}
      <h2>Latest{state ? `: ${inWords("jobState", state).toLowerCase()}` : ""}</h2>
      <p aria-label="Show only jobs in one state">
        {[null, ...states].map((s, i) => (
          <span key={s ?? "all"}>
            {i > 0 ? " · " : null}
            {s === state ? (
              <strong>{s ? inWords("jobState", s) : "All"}</strong>
            ) : (
              <Link to={s ? `/admin/jobs?state=${s}` : "/admin/jobs"}>{s ? inWords("jobState", s) : "All"}</Link>
            )}
          </span>
        ))}
      </p>
      {recent.length === 0 ? <p>No jobs yet.</p> : <JobTable rows={recent} caption="Latest jobs" />}
    </AdminSection>
  );
}
