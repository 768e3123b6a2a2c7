import { Link, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";

export default function Home() {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  const community = data?.community;
  return (
    <section className="card welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">Welcome to {community?.name}</h1>
      <p className="lead">{community?.description}</p>
      <div className="actions">
        <Link className="button button-primary" to="/login">
          Login
        </Link>
        <Link className="button" to="/signup">
          Sign Up
        </Link>
      </div>
    </section>
  );
}
