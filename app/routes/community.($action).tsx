import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { communityFor } from "~/domain/community";
import { appServices } from "~/services/app.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? "Community" }];

/** /community (about) and /community/join (how to join). */
const ACTIONS = new Set(["join"]);

export async function loader({ params, context }: LoaderFunctionArgs) {
  if (params.action && !ACTIONS.has(params.action)) throw json("This page could not be found", { status: 404 });
  const { config } = await appServices(context);
  const community = communityFor(config.community);
  return json({
    community,
    page: params.action ?? "about",
    title: params.action === "join" ? `Join ${community.name}` : community.name,
  });
}

export default function Community() {
  const { community, page } = useLoaderData<typeof loader>();
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
