import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

/** One record of an admin list, with the way back to the list. */
export function RecordPage({
  title,
  titleId,
  back,
  children,
}: {
  title: string;
  titleId: string;
  back: { to: string; label: string };
  children: ReactNode;
}) {
  return (
    <section className="card card-wide" aria-labelledby={titleId}>
      <p>
        <Link to={back.to}>{back.label}</Link>
      </p>
      <h1 id={titleId}>{title}</h1>
      {children}
    </section>
  );
}
