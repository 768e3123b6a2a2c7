import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { requireViewer } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Community group pending" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await requireViewer(request, context);
  return json({ email: viewer.member.email });
}

export default function CommunityGroupPending() {
  const { email } = useLoaderData<typeof loader>();
  return (
    <section className="card" aria-labelledby="pending-title">
      <h1 id="pending-title">Your community group membership is pending</h1>
      <p>
        A group organiser will confirm your place soon. We will write to <strong>{email}</strong> as soon as it is done.
      </p>
      <p>
        <Link to="/">Go to the community home</Link>
      </p>
    </section>
  );
}
