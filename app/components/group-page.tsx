import { Link } from "@remix-run/react";
import type { CommunityGroup } from "~/domain/community";

export function GroupPage({ group }: { group: CommunityGroup }) {
  return (
    <section className="card" aria-labelledby="group-title">
      <h1 id="group-title">{group.name}</h1>
      <p className="lead">{group.description}</p>
      <div className="actions">
        <Link className="button button-primary" to="/signup">
          Sign Up
        </Link>
        <Link className="button" to="/login">
          Login
        </Link>
      </div>
    </section>
  );
}
