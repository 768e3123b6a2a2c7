import type { ReactNode } from "react";

/**
 * A wide table's own scrolling box: on a narrow screen the table scrolls inside it, never the
 * page. The box is a labelled region that takes the focus, so a keyboard can scroll it too.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
