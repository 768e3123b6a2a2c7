import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ConfirmButton } from "~/components/ui/confirm-button";
import { SubmitButton } from "~/components/ui/submit-button";
import { actorOf } from "~/services/accounts.server";
import { audit } from "~/services/audit.server";
import { findMembers, memberDetail } from "~/services/members.server";
import { redirectWithFlash, requireAdmin, revokeUserSessions } from "~/services/session.server";

export const handle = { layout: "container" };

export const meta: MetaFunction = () => [{ title: "Members" }];

const querySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { services } = await requireAdmin(request, context);
  if (params.userId) {
    const id = z.string().uuid().safeParse(params.userId);
    const detail = id.success ? await memberDetail(services.db, id.data) : null;
    if (!detail) throw json("This page could not be found", { status: 404 });
    return json({ view: "detail" as const, detail, list: null, q: "", page: 1 });
  }
  const { q, page } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return json({ view: "list" as const, detail: null, list: await findMembers(services.db, q, page), q, page });
}

/** An admin ends every session of a member (DESIGN.md §4 "admin revocation"), audited. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const { viewer, services } = await requireAdmin(request, context);
  const id = z.string().uuid().safeParse(params.userId);
  const detail = id.success ? await memberDetail(services.db, id.data) : null;
  if (!detail) throw json("This page could not be found", { status: 404 });
  const form = await request.formData().catch(() => null);
  if (form?.get("intent") !== "end-sessions") throw json("Unknown action", { status: 400 });
  await revokeUserSessions(services.db, detail.id);
  await audit(services.db, actorOf(viewer), "sessions.revoke", "user", detail.id);
  return redirectWithFlash(
    `/members/${detail.id}`,
    { kind: "success", message: `${detail.username} is signed out everywhere.` },
    services.config,
  );
}

export default function Members() {
  const data = useLoaderData<typeof loader>();
  if (data.view === "detail" && data.detail) {
    const m = data.detail;
    return (
      <section className="card card-wide" aria-labelledby="member-title">
        <p>
          <Link to="/members">All members</Link>
        </p>
        <h1 id="member-title">{m.username}</h1>
        <div className="table-scroll">
          <table className="data">
            <tbody>
              <tr>
                <th scope="row">E-mail</th>
                <td>
                  {m.email} {m.emailVerified ? "(confirmed)" : "(not confirmed)"}
                </td>
              </tr>
              <tr>
                <th scope="row">Name</th>
                <td>{m.name ?? "—"}</td>
              </tr>
              <tr>
                <th scope="row">Country</th>
                <td>{m.country ?? "—"}</td>
              </tr>
              <tr>
                <th scope="row">Roles</th>
                <td>{m.roles.join(", ") || "member"}</td>
              </tr>
              <tr>
                <th scope="row">Setup</th>
                <td>{m.needsSetup ? "not finished" : "done"}</td>
              </tr>
              <tr>
                <th scope="row">Membership</th>
                <td>
                  {m.subStatus ?? "none"}
                  {m.expiration ? ` until ${m.expiration.slice(0, 10)}` : ""}
                </td>
              </tr>
              <tr>
                <th scope="row">Joined</th>
                <td>{m.createdAt.slice(0, 10)}</td>
              </tr>
            </tbody>
          </table>
        </div>
        <Form method="post" action="/admin" className="actions">
          <input type="hidden" name="intent" value="start-agent" />
          <input type="hidden" name="userId" value={m.id} />
          <SubmitButton pendingText="Switching…">Represent this member</SubmitButton>
        </Form>
        <Form method="post" className="actions">
          <input type="hidden" name="intent" value="end-sessions" />
          <ConfirmButton confirmText="Click again to sign them out">Sign out everywhere</ConfirmButton>
        </Form>
      </section>
    );
  }
  const list = data.list!;
  return (
    <section className="card card-wide" aria-labelledby="members-title">
      <h1 id="members-title">Members</h1>
      <Form method="get" className="form" role="search">
        <div className="field">
          <label htmlFor="q">Find a member</label>
          <input id="q" name="q" type="search" defaultValue={data.q} placeholder="Username, e-mail or name" />
        </div>
      </Form>
      <p className="muted">
        {list.total} {list.total === 1 ? "member" : "members"}
      </p>
      <div className="table-scroll">
        <table className="data">
          <thead>
            <tr>
              <th scope="col">Username</th>
              <th scope="col">E-mail</th>
              <th scope="col">Membership</th>
              <th scope="col">Roles</th>
            </tr>
          </thead>
          <tbody>
            {list.rows.map((m) => (
              <tr key={m.id}>
                <td>
                  <Link to={`/members/${m.id}`}>{m.username}</Link>
                </td>
                <td>{m.email}</td>
                <td>{m.needsSetup ? "setup not finished" : (m.subStatus ?? "none")}</td>
                <td>{m.roles.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav className="actions" aria-label="Pages">
        {data.page > 1 ? <Link to={`?q=${encodeURIComponent(data.q)}&page=${data.page - 1}`}>Previous</Link> : null}
        {list.hasMore ? <Link to={`?q=${encodeURIComponent(data.q)}&page=${data.page + 1}`}>Next</Link> : null}
      </nav>
    </section>
  );
}
