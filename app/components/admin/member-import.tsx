import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { Alert } from "~/components/ui/alert";
import { SubmitButton } from "~/components/ui/submit-button";
import { DataTable } from "~/components/ui/record-table";
import { ProgressRefresh } from "~/components/ui/progress-refresh";
import { formatDateTime } from "~/lib/format";
import { IntentForm } from "~/components/ui/intent-form";

/** The admins' members import: the upload with its dry run, the imports, and one import's report and progress. */

export type ImportSummary = {
  id: string;
  fileName: string;
  status: string;
  total: number;
  created: number;
  updated: number;
  skipped: number;
  createdAt: string;
  admin: string | null;
};

const STATUS_WORDS: Record<string, string> = {
  checked: "Checked, not imported yet",
  queued: "Waiting to start",
  running: "Importing",
  done: "Imported",
  failed: "Stopped by an error",
};

const number = (n: number) => n.toLocaleString("en-US");

/** "1 update", "2 updates". */
const counted = (n: number, one: string, many: string) => `${number(n)} ${n === 1 ? one : many}`;

/** What each column is read as, in words. */
const FIELD_WORDS: Record<string, string> = {
  email: "e-mail",
  username: "username",
  name: "name",
  firstName: "first name",
  lastName: "last name",
  country: "country",
  createdAt: "date joined",
  labels: "labels",
  plan: "complimentary plan",
  tiers: "the plan's tier",
  planEndsOn: "complimentary until",
  newsletter: "newsletter",
};

/** The largest file an import takes, and the words that say a file is larger. */
export type ImportLimit = { mb: number; bytes: number; tooLarge: string };

/** /members/import: what the file may hold, the upload, and the imports so far. */
export function ImportStart({
  error,
  imports,
  limit,
}: {
  error: string | null;
  imports: ImportSummary[];
  limit: ImportLimit;
}) {
  // The browser knows a file's size before sending it: one over the limit is refused here,
  // with the form kept, rather than sent only to be cut off (without JavaScript the server's
  // 413 page says the same).
  const [tooLarge, setTooLarge] = useState(false);
  const tooLargeIn = (input: HTMLInputElement | null) => (input?.files?.[0]?.size ?? 0) > limit.bytes;
  const shown = tooLarge ? limit.tooLarge : error;
  return (
    <section className="card card-wide" aria-labelledby="import-title">
      <h1 id="import-title">Import members</h1>
      <p>
        A CSV file of members, one per row, with a header row naming the columns. <strong>email</strong> is the one
        column it needs; it may also have <em>username</em>, <em>name</em> (or first and last name), <em>country</em>{" "}
        (its code or name), <em>created</em> (the date they joined, YYYY-MM-DD), <em>labels</em> (or group, separated by
        commas), <em>complimentary plan</em> (a plan&apos;s name, or yes for the first plan) with{" "}
        <em>complimentary until</em> (YYYY-MM-DD), and <em>newsletter</em> (yes or no). Ghost&apos;s members export and
        Mailchimp&apos;s audience export read as they are. Up to {limit.mb} MB, in UTF-8 or Latin-1.
      </p>
      <p>
        First comes a dry run: a report of what each row would do, and nothing is changed. A member whose e-mail is here
        already is updated; new members get an e-mail inviting them to choose a password.
      </p>
      <Form
        method="post"
        encType="multipart/form-data"
        className="stack"
        aria-describedby={shown ? "import-error" : undefined}
        onSubmit={(event) => {
          const over = tooLargeIn(event.currentTarget.elements.namedItem("file") as HTMLInputElement | null);
          setTooLarge(over);
          if (over) event.preventDefault();
        }}
      >
        {shown ? (
          <div id="import-error">
            <Alert kind="error" title="The file was not imported">
              {shown}
            </Alert>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="import-file">CSV file</label>
          <input
            id="import-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? "import-error" : undefined}
            onChange={(event) => setTooLarge(tooLargeIn(event.currentTarget))}
          />
        </div>
        <div className="checkbox">
          <input id="import-invite" name="invite" type="checkbox" value="on" defaultChecked />
          <label htmlFor="import-invite">E-mail new members an invitation to choose a password</label>
        </div>
        <SubmitButton pendingText="Checking the file…">Check the file (dry run)</SubmitButton>
      </Form>
      {imports.length > 0 ? <ImportList imports={imports} /> : null}
    </section>
  );
}

function ImportList({ imports }: { imports: ImportSummary[] }) {
  return (
    <>
      <h2 id="imports-title">Imports</h2>
      <DataTable
        caption="Imports"
        hiddenCaption
        rows={imports}
        columns={[
          { header: "File", cell: (i) => <Link to={`/members/import/${i.id}`}>{i.fileName}</Link> },
          { header: "Checked", cell: (i) => formatDateTime(i.createdAt) },
          { header: "By", cell: (i) => i.admin ?? "–" },
          { header: "Status", cell: (i) => STATUS_WORDS[i.status] ?? i.status },
          { header: "Rows", cell: (i) => number(i.total) },
          { header: "Created", cell: (i) => number(i.created) },
          { header: "Updated", cell: (i) => number(i.updated) },
          { header: "Skipped", cell: (i) => number(i.skipped) },
        ]}
      />
    </>
  );
}

export type ImportDetail = {
  import: ImportSummary & {
    encoding: string;
    invite: boolean;
    toCreate: number;
    toUpdate: number;
    toSkip: number;
    processed: number;
    invited: number;
    error: string | null;
    finishedAt: string | null;
  };
  columns: { header: string; field: string | null }[];
  view: string;
  rows: {
    row: number;
    email: string;
    username: string | null;
    action: string;
    reason: string;
    outcome: string | null;
    outcomeReason: string | null;
  }[];
  next: number | null;
  /** How many invitations go out each minute. */
  invitationsPerMinute: number;
};

const ACTION_WORDS: Record<string, [string, string]> = {
  create: ["Would create", "Created"],
  update: ["Would update", "Updated"],
  skip: ["Would skip", "Skipped"],
};

const VIEW_WORDS: Record<string, string> = {
  all: "All rows",
  create: "New members",
  update: "Updates",
  skip: "Skipped",
};

/** /members/import/{id}: the dry run's report, then the import's progress and result. */
export function ImportReport({ page, message }: { page: ImportDetail; message: string | null }) {
  const { import: record, columns, view, rows, next } = page;
  const running = record.status === "queued" || record.status === "running";
  const checked = record.status === "checked";
  const read = columns.filter((c) => c.field);
  const ignored = columns.filter((c) => !c.field && c.header.trim());
  return (
    <section className="card card-wide" aria-labelledby="import-report-title">
      <ProgressRefresh running={running} />
      <p>
        <Link to="/members/import">All imports</Link>
      </p>
      <h1 id="import-report-title">Import of {record.fileName}</h1>
      {message ? <Alert kind="error">{message}</Alert> : null}
      <p>
        {STATUS_WORDS[record.status] ?? record.status}. Checked {formatDateTime(record.createdAt)}
        {record.admin ? ` by ${record.admin}` : ""}; read as {record.encoding === "utf-8" ? "UTF-8" : "Latin-1"}.
      </p>
      <p>
        Columns read: {read.map((c) => `${c.header} (as ${FIELD_WORDS[c.field!] ?? c.field})`).join(", ")}.
        {ignored.length > 0 ? ` Not read: ${ignored.map((c) => c.header).join(", ")}.` : ""}
      </p>
      <h2>Dry run</h2>
      <ul>
        <li>
          {counted(record.total, "row", "rows")}: {counted(record.toCreate, "new member", "new members")},{" "}
          {counted(record.toUpdate, "update", "updates")}, {number(record.toSkip)} skipped.
        </li>
      </ul>
      {checked ? (
        <div className="actions">
          <IntentForm intent="start" pendingText="Starting…">
            Import {counted(record.toCreate + record.toUpdate, "member", "members")}
          </IntentForm>
          <IntentForm intent="discard" className="button" pendingText="Discarding…">
            Discard
          </IntentForm>
        </div>
      ) : (
        <ImportProgress record={record} perMinute={page.invitationsPerMinute} />
      )}
      <p>
        <a href={`/members/import/${record.id}/report.csv`} download>
          Download the report (CSV)
        </a>
      </p>
      <nav aria-label="Rows shown" className="actions">
        {Object.entries(VIEW_WORDS).map(([key, words]) =>
          key === view ? (
            <strong key={key} aria-current="page">
              {words}
            </strong>
          ) : (
            <Link key={key} to={`?view=${key}`}>
              {words}
            </Link>
          ),
        )}
      </nav>
      <DataTable
        caption="Rows of the file"
        hiddenCaption
        rows={rows.map((r) => ({ ...r, id: r.row }))}
        columns={[
          { header: "Row", cell: (r) => r.row },
          { header: "E-mail", cell: (r) => r.email },
          { header: "Username", cell: (r) => r.username ?? "" },
          {
            header: "Dry run",
            cell: (r) => (
              <>
                {ACTION_WORDS[r.action]?.[0]}
                {r.reason ? <div className="muted">{r.reason}</div> : null}
              </>
            ),
          },
          {
            header: "Import",
            cell: (r) => (
              <>
                {r.outcome ? ACTION_WORDS[r.outcome]?.[1] : "–"}
                {r.outcomeReason && r.outcomeReason !== r.reason ? (
                  <div className="muted">{r.outcomeReason}</div>
                ) : null}
              </>
            ),
          },
        ]}
      />
      {next !== null ? (
        <p>
          <Link to={`?view=${view}&after=${next}`}>Next rows</Link>
        </p>
      ) : null}
    </section>
  );
}

function ImportProgress({ record, perMinute }: { record: ImportDetail["import"]; perMinute: number }) {
  const done = record.status === "done";
  return (
    <>
      <h2>Import</h2>
      <p role="status" aria-live="polite">
        <progress max={record.total} value={record.processed} aria-label="Rows imported" /> {number(record.processed)}{" "}
        of {counted(record.total, "row", "rows")} done
        {done
          ? `: ${number(record.created)} created, ${number(record.updated)} updated, ${number(record.skipped)} skipped.`
          : "."}
      </p>
      {done && record.invite && record.created > 0 ? (
        <p>
          Invitations e-mailed: {number(record.invited)} of {number(record.created)}
          {record.invited < record.created ? ` (${perMinute} a minute)` : ""}.
        </p>
      ) : null}
      {record.status === "failed" ? (
        <Alert kind="error" title="The import stopped">
          {record.error} The rows done so far are kept; the rest were not imported.
        </Alert>
      ) : null}
    </>
  );
}
