import { Link } from "@remix-run/react";
import type { GroupStanding } from "~/domain/community";

/** /community-group-pending: where the member's community group membership stands. */
export function GroupPending({ email, standing }: { email: string; standing: GroupStanding }) {
  const title =
    standing.state === "pending"
      ? "Your community group membership is pending"
      : standing.state === "joined"
        ? `You are a member of ${standing.group}`
        : "You have no pending group membership";
  return (
    <section className="card" aria-labelledby="pending-title">
      <h1 id="pending-title">{title}</h1>
      {standing.state === "pending" ? (
        <p>
          You are joining <strong>{standing.group}</strong>. Your place is confirmed as soon as your payment goes
          through; we will write to <strong>{email}</strong> when it does.{" "}
          <Link to="/profile/billing">See your payments</Link>.
        </p>
      ) : standing.state === "joined" ? (
        <p>Your place in the group is confirmed; there is nothing to wait for.</p>
      ) : (
        <p>
          You join a community group through its invitation link. When you have one, open it and choose a plan; this
          page then shows where your membership stands.
        </p>
      )}
      <p>
        <Link to="/">Go to the community home</Link>
      </p>
    </section>
  );
}
