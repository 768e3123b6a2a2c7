import type { SerializeFrom } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { RecordPage } from "~/components/admin/record-page";
import { LinkList, RECORDS } from "~/components/record-links";
import { RecordTable, type Column } from "~/components/ui/record-table";
import { textWithLinks } from "~/domain/links";
import { formatDateTime } from "~/lib/format";
import type { recordView } from "~/services/record-views.server";

type RecordView = SerializeFrom<typeof recordView>;
type TableView = Extract<RecordView, { rows: unknown[] }>;
type RowOf<V extends TableView["view"]> = Extract<TableView, { view: V }>["rows"][number];
type TableRow = TableView["rows"][number];

function ErrorMessage({ report }: { report: RowOf<"errors"> }) {
  return (
    <>
      {report.message}
      {report.stack ? (
        <details>
          <summary>Stack</summary>
          <pre className="mail">{report.stack}</pre>
        </details>
      ) : null}
    </>
  );
}

/** Each table of records: its heading, what it says when empty, and its columns. */
const TABLES: { [V in TableView["view"]]: { title: string; empty?: string; columns: Column<RowOf<V>>[] } } = {
  outbox: {
    title: "Mail outbox",
    columns: [
      { header: "Sent", cell: (m) => formatDateTime(m.createdAt) },
      { header: "To", cell: (m) => m.to },
      { header: "Subject", cell: (m) => <Link to={`/db/mail_outbox/${m.id}`}>{m.subject}</Link> },
      { header: "Status", cell: (m) => m.status },
    ],
  },
  support: {
    title: "Support requests",
    columns: [
      { header: "When", cell: (r) => formatDateTime(r.createdAt) },
      { header: "From", cell: (r) => r.email },
      { header: "Subject", cell: (r) => r.subject },
      { header: "Message", cell: (r) => r.message },
      { header: "Source", cell: (r) => r.source },
    ],
  },
  errors: {
    title: "Error reports",
    empty: "No client errors have been reported.",
    columns: [
      { header: "When", cell: (r) => formatDateTime(r.time) },
      { header: "Page", cell: (r) => r.href },
      { header: "Message", cell: (r) => <ErrorMessage report={r} /> },
    ],
  },
  audit: {
    title: "Audit log",
    columns: [
      { header: "When", cell: (e) => formatDateTime(e.createdAt) },
      { header: "Who", cell: (e) => e.actor ?? "—" },
      { header: "For", cell: (e) => e.agent ?? "—" },
      { header: "Action", cell: (e) => e.action },
      { header: "On", cell: (e) => `${e.entity}${e.entityId ? ` ${e.entityId}` : ""}` },
    ],
  },
};

function MailMessage({ message: m }: { message: Extract<RecordView, { view: "mail" }>["message"] }) {
  return (
    <RecordPage title={m.subject} titleId="mail-title" back={{ to: "/db/mail_outbox", label: "Mail outbox" }}>
      <p className="muted">
        To {m.to} · {formatDateTime(m.createdAt)} · {m.template ?? "mail"} · {m.status}
        {m.attempts > 1 ? ` after ${m.attempts} tries` : ""}
      </p>
      {m.lastError ? (
        <p className="muted">
          The mail server answered: <code>{m.lastError}</code>
        </p>
      ) : null}
      <pre className="mail">
        {textWithLinks(m.text).map((part, i) =>
          "href" in part ? (
            <a key={i} href={part.href}>
              {part.href}
            </a>
          ) : (
            part.text
          ),
        )}
      </pre>
    </RecordPage>
  );
}

/** /db and its record views, for admins. */
export function Records({ data }: { data: RecordView }) {
  if (data.view === "index") {
    return (
      <section className="card" aria-labelledby="db-title">
        <h1 id="db-title">Records</h1>
        <LinkList links={RECORDS} />
      </section>
    );
  }
  if (data.view === "mail") return <MailMessage message={data.message} />;
  // The service returns each view with its own rows; TypeScript cannot follow that pairing
  // through the union, so the columns are read as columns of any of its rows.
  const table = TABLES[data.view] as unknown as { title: string; empty?: string; columns: Column<TableRow>[] };
  return <RecordTable title={table.title} empty={table.empty} rows={data.rows} columns={table.columns} />;
}
