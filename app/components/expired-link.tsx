import { Link } from "@remix-run/react";

/** The page a used or expired e-mailed link leads to, with the way to get a new one. */
export function ExpiredLink({ explanation, to, action }: { explanation: string; to: string; action: string }) {
  return (
    <section className="card" aria-labelledby="expired-title">
      <h1 id="expired-title">This link does not work any more</h1>
      <p>{explanation}</p>
      <p>
        <Link className="button button-primary" to={to}>
          {action}
        </Link>
      </p>
    </section>
  );
}
