import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
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
      const id = z.coerce.number().int().positive().safeParse(params.view);
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
        <ul>
          <li>
            <Link to="/db/mail_outbox">Mail outbox</Link>
          </li>
          <li>
            <Link to="/db/audit_log">Audit log</Link>
          </li>
          <li>
            <Link to="/db/error_reports">Error reports</Link>
          </li>
          <li>
            <Link to="/db/support_requests">Support requests</Link>
          </li>
        </ul>
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
        </p>
        <pre className="mail">{m.text}</pre>
      </section>
    );
  }
  if (data.view === "outbox") {
    return (
      <section className="card card-wide" aria-labelledby="outbox-title">
        <h1 id="outbox-title">Mail outbox</h1>
        <div className="table-scroll">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Sent</th>
                <th scope="col">To</th>
                <th scope="col">Subject</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {data.messages.map((m) => (
                <tr key={m.id}>
                  <td>{m.createdAt.slice(0, 19).replace("T", " ")}</td>
                  <td>{m.to}</td>
                  <td>
                    <Link to={`/db/mail_outbox/${m.id}`}>{m.subject}</Link>
                  </td>
                  <td>{m.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    );
  }
  if (data.view === "support") {
    return (
      <section className="card card-wide" aria-labelledby="support-title">
        <h1 id="support-title">Support requests</h1>
        <div className="table-scroll">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">From</th>
                <th scope="col">Subject</th>
                <th scope="col">Message</th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {data.requests.map((r) => (
                <tr key={r.id}>
                  <td>{r.createdAt.slice(0, 19).replace("T", " ")}</td>
                  <td>{r.email}</td>
                  <td>{r.subject}</td>
                  <td>{r.message}</td>
                  <td>{r.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    );
  }
  if (data.view === "errors") {
    return (
      <section className="card card-wide" aria-labelledby="errors-title">
        <h1 id="errors-title">Error reports</h1>
        {data.reports.length === 0 ? <p>No client errors have been reported.</p> : null}
        <div className="table-scroll">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Page</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {data.reports.map((r) => (
                <tr key={r.id}>
                  <td>{r.time.slice(0, 19).replace("T", " ")}</td>
                  <td>{r.href}</td>
                  <td>
                    {r.message}
                    {r.stack ? (
                      <details>
                        <summary>Stack</summary>
                        <pre className="mail">{r.stack}</pre>
                      </details>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    );
  }
  return (
    <section className="card card-wide" aria-labelledby="audit-title">
      <h1 id="audit-title">Audit log</h1>
      <div className="table-scroll">
        <table className="data">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">For</th>
              <th scope="col">Action</th>
              <th scope="col">On</th>
            </tr>
          </thead>
          <tbody>
            {data.entries.map((e) => (
              <tr key={e.id}>
                <td>{e.createdAt.slice(0, 19).replace("T", " ")}</td>
                <td>{e.actor ?? "—"}</td>
                <td>{e.agent ?? "—"}</td>
                <td>{e.action}</td>
                <td>
                  {e.entity}
                  {e.entityId ? ` ${e.entityId}` : ""}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
