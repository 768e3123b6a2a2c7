import type { ReactNode } from "react";
import { Link } from "@remix-run/react";

/** An admin page: a wide card with the way back to /admin above its heading. */
export function AdminSection({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section className="card card-wide" aria-labelledby={id}>
      <p>
        <Link to="/admin">Admin</Link>
      </p>
      <h1 id={id}>{title}</h1>
      {children}
    </section>
  );
}
