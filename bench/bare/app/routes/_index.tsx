import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";

export const meta = () => [{ title: "Bare home" }];

export function loader() {
  return json({ name: "A community", description: "A page with a loader, a heading, a paragraph and two links." });
}

export default function Index() {
  const { name, description } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Welcome to {name}</h1>
      <p>{description}</p>
      <p>
        <Link to="/login">Login</Link> <Link to="/signup">Sign Up</Link>
      </p>
    </main>
  );
}
