import { Link } from "@remix-run/react";
import type { Community } from "~/domain/community";
import { JoinLinks } from "./join-links";

/** /community: what the community is; /community/join: how to join it. */
export function CommunityPage({ community, page }: { community: Community; page: "about" | "join" }) {
  if (page === "join") {
    return (
      <section className="card" aria-labelledby="community-title">
        <h1 id="community-title">Join {community.name}</h1>
        <ol>
          <li>Sign up with a username, your e-mail address and a password.</li>
          <li>Confirm your e-mail address from the message we send.</li>
          <li>Tell us your name and country, and choose a subscription or a donation.</li>
        </ol>
        <p>Then you can prepare your first notice, and every {community.memberNoun} can help you along the way.</p>
        <JoinLinks />
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="community-title">
      <h1 id="community-title">{community.name}</h1>
      <p className="lead">{community.description}</p>
      <p>
        <Link to="/community/join">How to join</Link> · <Link to="/newsletter-subscribe">Newsletter</Link>
      </p>
    </section>
  );
}
