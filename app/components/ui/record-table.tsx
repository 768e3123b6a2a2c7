import type { ReactNode } from "react";
import { TableScroll } from "~/components/ui/table-scroll";

export type Column<T> = { header: string; cell: (row: T) => ReactNode };

/** A table of rows, one column per `Column`, scrolling in its own box when it is wider than the screen. */
export function DataTable<T extends { id: string | number }>({
  rows,
  columns,
  caption,
  label,
}: {
  rows: T[];
  columns: Column<T>[];
  caption?: string;
  /** What the table's scrolling box is called when the table has no caption; by default its columns. */
  label?: string;
}) {
  return (
    <TableScroll label={caption ?? label ?? columns.map((c) => c.header).join(", ")}>
      <table className="data">
        {caption ? <caption>{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" key={c.header}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((c) => (
                <td key={c.header}>{c.cell(row)}</td>
              ))}
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
