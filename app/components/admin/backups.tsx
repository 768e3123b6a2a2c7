import { Link } from "@remix-run/react";
import { Alert } from "~/components/ui/alert";
import { DataTable, type Column } from "~/components/ui/record-table";
import { ProgressRefresh } from "~/components/ui/progress-refresh";
import { byteSize, formatDateTime } from "~/lib/format";
import { RowAction } from "~/components/ui/row-action";
import { AdminSection } from "~/components/admin/admin-section";
import { IntentForm } from "~/components/ui/intent-form";
import type { BackupPlace, BackupVerifyReport } from "~/domain/backups";

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
  /** "age" when the file is encrypted to the operator's key. */
  encryption: string | null;
  /** Where the file is: this server's (or its server's) BACKUP_DIR, the store, both. */
  place: BackupPlace;
  verify: boolean;
  verifyStatus: string | null;
  verifyReport: BackupVerifyReport | null;
  verifiedAt: string | null;
};

const PLACE_WORDS: Record<BackupPlace, string> = {
  local: "On the server",
  store: "In the store",
  both: "On the server and in the store",
  nowhere: "–",
};

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;

/** What a test restore found, in a sentence. */
export function verifyWords(report: BackupVerifyReport): string {
  if (report.error) return `Could not restore: ${report.error}`;
  const restored = `${plural(report.tables, "table", "tables")}, ${plural(report.rows, "row", "rows")}`;
  const differing = report.differences
    .slice(0, 3)
    .map((d) => `${d.table} ${d.found === null ? "missing" : `${d.found} of ${d.expected ?? 0}`}`)
    .join(", ");
  const counts = report.differences.length
    ? `${plural(report.differences.length, "table differs", "tables differ")}: ${differing}${report.differences.length > 3 ? ", …" : ""}`
    : `restored with the same rows (${restored}${
        report.notCompared?.length
          ? `; ${plural(report.notCompared.length, "table", "tables")} written to during the dump not compared`
          : ""
      })`;
  const stored =
    report.storedCopyMatches === null
      ? ""
      : report.storedCopyMatches
        ? "; the kept copy read back unchanged"
        : "; the kept copy read back DIFFERS from the file made";
  return `${counts[0]!.toUpperCase()}${counts.slice(1)}${stored}.`;
}

function TestRestore({ backup }: { backup: BackupRow }) {
  if (!backup.verifyStatus || !backup.verifyReport)
    return <>{backup.verify && backup.status !== "failed" ? "Asked" : "–"}</>;
  return (
    <>
      <strong>{backup.verifyStatus === "passed" ? "Passed" : "Failed"}</strong>
      <div className="muted">{verifyWords(backup.verifyReport)}</div>
    </>
  );
}

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
    header: "Kept",
    cell: (b) => (
      <>
        {PLACE_WORDS[b.place]}
        <div className="muted">{b.encryption === "age" ? "Encrypted (age)" : "Not encrypted"}</div>
      </>
    ),
  },
  { header: "Test restore", cell: (b) => <TestRestore backup={b} /> },
  {
    header: "File",
    cell: (b) => (
      <>
        {b.status === "done" || b.place !== "nowhere" ? (
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

/** Where the files go and how, in the page's opening words. */
function KeptWhere({ store, encrypted }: { store: string | null; encrypted: boolean }) {
  return (
    <p>
      {store ? (
        <>
          Each file is written on the server that makes it, then sent to the store <code>{store}</code>, which every
          server downloads from; a file the store did not take stays on its server and is sent again every 15 minutes.
        </>
      ) : (
        <>Each file is written on the server that makes it, and is downloaded from there.</>
      )}{" "}
      {encrypted
        ? "Files are encrypted to the operator's key before they are written: this server cannot read them, and a restore needs the private key."
        : "Files are not encrypted."}
    </p>
  );
}

/** /admin/backups: make a backup now (and test-restore it), follow it, and download or delete the backups kept. */
export function BackupsPage({
  backups,
  retentionDays,
  schedule,
  store,
  encrypted,
  verifyDaily,
  message,
}: {
  backups: BackupRow[];
  retentionDays: number;
  /** When the daily backup is made, in words ("every day at 03:17 UTC"). */
  schedule: string;
  /** The remote store's location (s3://bucket/prefix); null: files stay on their server. */
  store: string | null;
  encrypted: boolean;
  verifyDaily: boolean;
  message: string | null;
}) {
  const running = backups.find((b) => b.status === "queued" || b.status === "running") ?? null;
  const lastTest = backups.find((b) => b.verifyStatus !== null) ?? null;
  return (
    <AdminSection id="backups-title" title="Backups">
      <ProgressRefresh running={running !== null} />
      <p>
        A backup holds the whole database: members, NoL entries, payments, documents and the jobs waiting. It does not
        hold the server&apos;s settings and secrets. A backup is made automatically {schedule}
        {verifyDaily ? " and test-restored" : ""} and kept {retentionDays} days; the backups asked for here stay until
        deleted.
      </p>
      <KeptWhere store={store} encrypted={encrypted} />
      <p>
        A test restore restores a backup as it is made into a scratch database, counts each table&apos;s rows against
        the database it was made from, and reads the kept file back to check it is unchanged.
        {lastTest ? (
          <>
            {" "}
            The last one, of {formatDateTime(lastTest.createdAt)}:{" "}
            <strong>{lastTest.verifyStatus === "passed" ? "passed" : "failed"}</strong>.
          </>
        ) : (
          " None has been made yet."
        )}
      </p>
      {message ? <Alert kind="error">{message}</Alert> : null}
      {running ? (
        <BackupProgress backup={running} />
      ) : (
        <div className="actions">
          <IntentForm intent="start" pendingText="Starting…">
            Make a backup now
          </IntentForm>
          <IntentForm intent="test-restore" pendingText="Starting…" className="button">
            Make a backup and test-restore it
          </IntentForm>
        </div>
      )}
      {backups.length === 0 ? (
        <p>No backups yet.</p>
      ) : (
        <DataTable rows={backups} columns={COLUMNS} caption="Backups kept" />
      )}
    </AdminSection>
  );
}
