import { Link } from "@remix-run/react";

/** /community-group-pending: the member waits for a group organiser to confirm them. */
export function GroupPending({ email }: { email: string }) {
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
