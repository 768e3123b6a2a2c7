import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { requireMember } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Form not found" }];

/** "/nol/NotFound is shown when no form id is known for the form." */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireMember(request, context);
  return json({}, { status: 404 });
}

export default function NolNotFound() {
  return (
    <section className="card" aria-labelledby="nf-title">
      <h1 id="nf-title">This form could not be found</h1>
      <p>
        <Link to="/nol/creator">Go to the notice creator</Link>
      </p>
    </section>
  );
}
