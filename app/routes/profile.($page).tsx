import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireViewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Profile" }];

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  if (params.page) throw json("This page could not be found", { status: 404 });
  const { viewer } = await requireViewer(request, context);
  const m = viewer.member;
  return json({
    username: m.username,
    email: m.email,
    verified: m.emailVerifiedAt !== null,
    name: m.name,
    country: m.countryCode,
    subStatus: viewer.subscription?.status ?? null,
    expiration: viewer.subscription?.currentPeriodEnd?.toISOString() ?? null,
  });
}

export default function Profile() {
  const p = useLoaderData<typeof loader>();
  const active = p.subStatus === "ACTIVE" || p.subStatus === "TRIALING";
  return (
    <section className="card" aria-labelledby="profile-title">
      <h1 id="profile-title">{p.username}</h1>
      <div className="table-scroll">
        <table className="data">
          <tbody>
            <tr>
              <th scope="row">E-mail</th>
              <td>
                {p.email} {p.verified ? "(confirmed)" : <Link to="/signup/check-email">(confirm it)</Link>}
              </td>
            </tr>
            <tr>
              <th scope="row">Name</th>
              <td>{p.name ?? "—"}</td>
            </tr>
            <tr>
              <th scope="row">Country</th>
              <td>{p.country ?? "—"}</td>
            </tr>
            <tr>
              <th scope="row">Membership</th>
              <td>
                {p.subStatus ?? "none"}
                {p.expiration ? ` · renews ${p.expiration.slice(0, 10)}` : ""}
                {active ? null : (
                  <>
                    {" "}
                    · <Link to="/re-join">Re-join</Link>
                  </>
                )}
              </td>
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}
