import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { LinkList, RECORDS } from "~/components/record-links";
import { RecordTable, timestamp } from "~/components/ui/record-table";
import { latestErrorReports } from "~/services/errors.server";
import { auditEntries, outboxMessage, outboxMessages, supportRequestList } from "~/services/records.server";
import { requireAdmin } from "~/services/session.server";

export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Records" }];

/** Read-only views of the site's own records for admins: /db, /db/mail_outbox[/id], /db/audit_log. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  const { db } = services;
  if (!params.entity) return json({ view: "index" as const });
  if (params.entity === "mail_outbox") {
    if (params.view) {
      const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).safeParse(params.view);
      const message = id.success ? await outboxMessage(db, id.data) : null;
      if (!message) throw json("This page could not be found", { status: 404 });
      return json({ view: "mail" as const, message });
    }
    return json({ view: "outbox" as const, messages: await outboxMessages(db) });
  }
  if (params.entity === "audit_log" && !params.view) {
    return json({ view: "audit" as const, entries: await auditEntries(db) });
  }
  if (params.entity === "support_requests" && !params.view) {
    return json({ view: "support" as const, requests: await supportRequestList(db) });
  }
  if (params.entity === "error_reports" && !params.view) {
    return json({ view: "errors" as const, reports: await latestErrorReports(db) });
  }
  throw json("This page could not be found", { status: 404 });
}

export default function Records() {
  const data = useLoaderData<typeof loader>();
  if (data.view === "index") {
    return (
      <section className="card" aria-labelledby="db-title">
        <h1 id="db-title">Records</h1>
        <LinkList links={RECORDS} />
      </section>
    );
  }
  if (data.view === "mail") {
    const m = data.message;
    return (
      <section className="card card-wide" aria-labelledby="mail-title">
        <p>
          <Link to="/db/mail_outbox">Mail outbox</Link>
        </p>
        <h1 id="mail-title">{m.subject}</h1>
        <p className="muted">
          To {m.to} · {m.createdAt} · {m.template ?? "mail"} · {m.status}
          {m.attempts > 1 ? ` after ${m.attempts} tries` : ""}
        </p>
        {m.lastError ? (
          <p className="muted">
            The mail server answered: <code>{m.lastError}</code>
          </p>
        ) : null}
        <pre className="mail">{m.text}</pre>
      </section>
    );
  }
  if (data.view === "outbox") {
    return (
      <RecordTable
        title="Mail outbox"
        rows={data.messages}
        columns={[
          { header: "Sent", cell: (m) => timestamp(m.createdAt) },
          { header: "To", cell: (m) => m.to },
          { header: "Subject", cell: (m) => <Link to={`/db/mail_outbox/${m.id}`}>{m.subject}</Link> },
          { header: "Status", cell: (m) => m.status },
        ]}
      />
    );
  }
  if (data.view === "support") {
    return (
      <RecordTable
        title="Support requests"
        rows={data.requests}
        columns={[
          { header: "When", cell: (r) => timestamp(r.createdAt) },
          { header: "From", cell: (r) => r.email },
          { header: "Subject", cell: (r) => r.subject },
          { header: "Message", cell: (r) => r.message },
          { header: "Source", cell: (r) => r.source },
        ]}
      />
    );
  }
  if (data.view === "errors") {
    return (
      <RecordTable
        title="Error reports"
        rows={data.reports}
        empty="No client errors have been reported."
        columns={[
          { header: "When", cell: (r) => timestamp(r.time) },
          { header: "Page", cell: (r) => r.href },
          {
            header: "Message",
            cell: (r) => (
              <>
                {r.message}
                {r.stack ? (
                  <details>
                    <summary>Stack</summary>
                    <pre className="mail">{r.stack}</pre>
                  </details>
                ) : null}
              </>
            ),
          },
        ]}
      />
    );
  }
  return (
    <RecordTable
      title="Audit log"
      rows={data.entries}
      columns={[
        { header: "When", cell: (e) => timestamp(e.createdAt) },
        { header: "Who", cell: (e) => e.actor ?? "—" },
        { header: "For", cell: (e) => e.agent ?? "—" },
        { header: "Action", cell: (e) => e.action },
        { header: "On", cell: (e) => `${e.entity}${e.entityId ? ` ${e.entityId}` : ""}` },
      ]}
    />
  );
}
