import type { SerializeFrom } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import { RecordPage } from "~/components/admin/record-page";
import { commonFacts } from "~/components/members/member-facts";
import { ConfirmButton } from "~/components/ui/confirm-button";
import { FactTable } from "~/components/ui/fact-table";
import { DataTable } from "~/components/ui/record-table";
import { SubmitButton } from "~/components/ui/submit-button";
import { formatDate } from "~/lib/format";
import type { findMembers, memberDetail } from "~/services/members.server";

type Detail = SerializeFrom<typeof memberDetail>;
type List = SerializeFrom<typeof findMembers>;

/** /members/{id}: one member, with the admin's two actions on them. */
export function MemberDetail({ member: m }: { member: Detail }) {
  return (
    <RecordPage title={m.username} titleId="member-title" back={{ to: "/members", label: "All members" }}>
      <FactTable
        facts={[
          ...commonFacts(m, m.emailVerified ? "(confirmed)" : "(not confirmed)"),
          ["Roles", m.roles.join(", ") || "member"],
          ["Setup", m.needsSetup ? "not finished" : "done"],
          ["Membership", `${m.subStatus ?? "none"}${m.expiration ? ` until ${formatDate(m.expiration)}` : ""}`],
          ["Joined", formatDate(m.createdAt)],
        ]}
      />
      <Form method="post" action="/admin" className="actions">
        <input type="hidden" name="intent" value="start-agent" />
        <input type="hidden" name="userId" value={m.id} />
        <SubmitButton pendingText="Switching…">Represent this member</SubmitButton>
      </Form>
      <Form method="post" className="actions">
        <input type="hidden" name="intent" value="end-sessions" />
        <ConfirmButton confirmText="Click again to sign them out">Sign out everywhere</ConfirmButton>
      </Form>
    </RecordPage>
  );
}

/** /members: find a member by username, e-mail or name, a page at a time. */
export function MemberList({ list, q, page }: { list: List; q: string; page: number }) {
  const pageLink = (n: number) => `?q=${encodeURIComponent(q)}&page=${n}`;
  return (
    <section className="card card-wide" aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      <Form method="get" className="form" role="search">
        <div className="field">
          <label htmlFor="q">Find a member</label>
          <input id="q" name="q" type="search" defaultValue={q} placeholder="Username, e-mail or name" />
        </div>
      </Form>
      <p className="muted">
        {list.total} {list.total === 1 ? "member" : "members"}
      </p>
      <DataTable
        rows={list.rows}
        columns={[
          { header: "Username", cell: (m) => <Link to={`/members/${m.id}`}>{m.username}</Link> },
          { header: "E-mail", cell: (m) => m.email },
          { header: "Membership", cell: (m) => (m.needsSetup ? "setup not finished" : (m.subStatus ?? "none")) },
          { header: "Roles", cell: (m) => m.roles.join(", ") },
        ]}
      />
      <nav className="actions" aria-label="Pages">
        {page > 1 ? <Link to={pageLink(page - 1)}>Previous</Link> : null}
        {list.hasMore ? <Link to={pageLink(page + 1)}>Next</Link> : null}
      </nav>
    </section>
  );
}
