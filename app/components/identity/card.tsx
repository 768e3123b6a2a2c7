import type { ReactNode } from "react";

/** The one-card page of the identity pages (login, sign-up, setup…): a heading and what follows. */
export function Card({
  id,
  title,
  lead,
  children,
  before,
}: {
  id: string;
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
  /** Shown above the heading (the setup steps). */
  before?: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby={id}>
      {before}
      <h1 id={id}>{title}</h1>
      {lead ? <p className="lead">{lead}</p> : null}
      {children}
    </section>
  );
}
