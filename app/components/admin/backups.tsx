import { Link } from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { DataTable, type Column } from "~/components/ui/record-table";
import { ProgressRefresh } from "~/components/ui/progress-refresh";
import { byteSize, formatDateTime } from "~/lib/format";
import { RowAction } from "~/components/ui/row-action";
import { AdminSection } from "~/components/admin/admin-section";
import { IntentForm } from "~/components/ui/intent-form";

export type BackupRow = {
  id: string;
  kind: string;
  status: string;
  fileName: string;
  /** The server whose folder holds the file, when it is not this one. */
  elsewhere: string | null;
  progressDone: number;
  progressTotal: number;
  bytes: number | null;
  sha256: string | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  admin: string | null;
};

const STATUS_WORDS: Record<string, string> = {
  queued: "Waiting to start",
  running: "Being made",
  done: "Done",
  failed: "Failed",
};

const KIND_WORDS: Record<string, string> = { manual: "Asked for", daily: "Daily" };

function BackupProgress({ backup }: { backup: BackupRow }) {
  return (
    <div role="status" aria-live="polite">
      <h2>Under way</h2>
      <p>
        {backup.fileName}: {STATUS_WORDS[backup.status]}
        {backup.progressTotal > 0 ? (
          <>
            {" "}
            <progress max={backup.progressTotal} value={backup.progressDone} aria-label="Tables backed up" />{" "}
            {backup.progressDone} of {backup.progressTotal} tables
          </>
        ) : null}
        . <Link to="/admin/backups">Reload</Link>
      </p>
    </div>
  );
}

const COLUMNS: Column<BackupRow>[] = [
  { header: "When", cell: (b) => <span className="nowrap">{formatDateTime(b.createdAt)}</span> },
  { header: "Kind", cell: (b) => KIND_WORDS[b.kind] ?? b.kind },
  { header: "By", cell: (b) => b.admin ?? "–" },
  {
    header: "Status",
    cell: (b) => (
      <>
        {STATUS_WORDS[b.status] ?? b.status}
        {b.error ? <div className="muted">{b.error}</div> : null}
      </>
    ),
  },
  { header: "Size", cell: (b) => (b.bytes !== null ? byteSize(b.bytes) : "–") },
  {
    header: "File",
    cell: (b) => (
      <>
        {b.status === "done" ? (
          // No download attribute: with a stale second factor the link goes to the factor's page
          // first, which a download would save as the file. The answer's own header downloads it.
          <a href={`/admin/backups/${b.id}/download`}>{b.fileName}</a>
        ) : (
          b.fileName
        )}
        {b.elsewhere ? <div className="muted">on another server: {b.elsewhere}</div> : null}
        {b.sha256 ? (
          <div className="muted">
            SHA-256 <code className="fingerprint">{b.sha256}</code>
          </div>
        ) : null}
      </>
    ),
  },
  {
    header: "Actions",
    cell: (b) =>
      b.status === "done" || b.status === "failed" ? (
        <RowAction intent="delete" field="backupId" value={b.id} pendingText="Deleting…" label={`Delete ${b.fileName}`}>
          Delete
        </RowAction>
      ) : null,
  },
];

/** /admin/backups: make a backup now, follow it, and download or delete the backups kept. */
export function BackupsPage({
  backups,
  retentionDays,
  schedule,
  message,
}: {
  backups: BackupRow[];
  retentionDays: number;
  /** When the daily backup is made, in words ("every day at 03:17 UTC"). */
  schedule: string;
  message: string | null;
}) {
  const running = backups.find((b) => b.status === "queued" || b.status === "running") ?? null;
  return (
    <AdminSection id="backups-title" title="Backups">
      <ProgressRefresh running={running !== null} />
      <p>
        A backup holds the whole database: members, NoL entries, payments, documents and the jobs waiting. It does not
        hold the server&apos;s settings and secrets. A backup is made automatically {schedule} and kept {retentionDays}{" "}
        days; the backups asked for here stay until deleted. Each file is written on the server that makes it, and is
        downloaded from there.
      </p>
      {message ? <Alert kind="error">{message}</Alert> : null}
      {running ? (
        <BackupProgress backup={running} />
      ) : (
        <IntentForm intent="start" pendingText="Starting…">
          Make a backup now
        </IntentForm>
      )}
      {backups.length === 0 ? (
        <p>No backups yet.</p>
      ) : (
        <DataTable rows={backups} columns={COLUMNS} caption="Backups kept" />
      )}
    </AdminSection>
  );
}
