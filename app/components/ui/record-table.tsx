import type { ReactNode } from "react";
import { TableScroll } from "~/components/ui/table-scroll";

export type Column<T> = {
  /** The column's name: its header's words, and each value's label when a row shows as a card. */
  header: string;
  cell: (row: T) => ReactNode;
  /** The header cell's content when it is more than the words (a link that sorts by the column). */
  head?: ReactNode;
  /** The list's order by this column, when it is sorted by it. */
  sort?: "ascending" | "descending";
  /** The column names its row: a row header, the title of the row's card on a phone. */
  rowHeader?: boolean;
  /** A column of actions or check boxes: its header is for screen readers only, its values go unlabelled. */
  unlabelled?: boolean;
};

/**
 * A table of rows, one column per `Column`. On a phone each row shows as a card of labelled
 * lines (the `data-stack` styles), its actions within the screen; wider, the table scrolls in its
 * own box when it is wider than the screen, and the box's shadow at an edge shows there is more.
 * The explicit roles keep the table's rows and headers for screen readers whatever its display.
 */
export function DataTable<T extends { id: string | number }>({
  rows,
  columns,
  caption,
  hiddenCaption,
  label,
}: {
  rows: T[];
  columns: Column<T>[];
  caption?: string;
  /** The caption is for screen readers only (the page's heading already says it). */
  hiddenCaption?: boolean;
  /** What the table's scrolling box is called; by default its caption, else its columns. */
  label?: string;
}) {
  return (
    <TableScroll label={label ?? caption ?? columns.map((c) => c.header).join(", ")}>
      <table className="data data-stack" role="table">
        {caption ? <caption className={hiddenCaption ? "visually-hidden" : undefined}>{caption}</caption> : null}
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((c) => (
              <th scope="col" role="columnheader" key={c.header} aria-sort={c.sort}>
                {c.unlabelled ? <span className="visually-hidden">{c.head ?? c.header}</span> : (c.head ?? c.header)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {rows.map((row) => (
            <tr key={row.id} role="row">
              {columns.map((c) =>
                c.rowHeader ? (
                  <th scope="row" role="rowheader" key={c.header}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td role="cell" key={c.header} data-label={c.unlabelled ? undefined : c.header}>
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** A scrollable table of records with a page heading, for the admin views. */
export function RecordTable<T extends { id: string | number }>({
  title,
  rows,
  columns,
  empty,
}: {
  title: string;
  rows: T[];
  columns: Column<T>[];
  empty?: string;
}) {
  const titleId = `${title.toLowerCase().replace(/\W+/g, "-")}-title`;
  return (
    <section className="card card-wide" aria-labelledby={titleId}>
      <h1 id={titleId}>{title}</h1>
      {rows.length === 0 && empty ? <p>{empty}</p> : null}
      <DataTable rows={rows} columns={columns} />
    </section>
  );
}
