import { Link } from "@remix-run/react";
import { listSearch } from "~/domain/list-search";
import type { ListQuery } from "~/domain/listing";
import type { Column } from "~/components/ui/record-table";
import { CsvExport } from "~/components/admin/csv-export";
import { Alert } from "~/components/ui/alert";
import { matchLine, type ListCount } from "~/domain/list-count";

/**
 * What makes a table's column sort the list by itself: its header is a link, and a second click
 * turns the order round.
 */
export function sortable(
  column: string,
  label: string,
  query: ListQuery,
): Pick<Column<never>, "header" | "head" | "sort"> {
  const current = query.sort === column;
  const dir = current && query.dir === "asc" ? "desc" : "asc";
  return {
    header: label,
    sort: current ? (query.dir === "asc" ? "ascending" : "descending") : undefined,
    head: (
      <Link to={`?${listSearch({ ...query, sort: column, dir })}`}>
        {label}
        {current ? <span aria-hidden="true">{query.dir === "asc" ? " ▲" : " ▼"}</span> : null}
        <span className="visually-hidden">{`, sort ${dir === "asc" ? "ascending" : "descending"}`}</span>
      </Link>
    ),
  };
}

/** The previous and next pages of a keyset list. */
export function ListPager({
  search,
  previous,
  next,
}: {
  search: string;
  previous: string | null;
  next: string | null;
}) {
  if (!previous && !next) return null;
  return (
    <nav className="actions" aria-label="Pages">
      {previous ? <Link to={`?${search}&before=${previous}`}>Previous page</Link> : null}
      {next ? <Link to={`?${search}&after=${next}`}>Next page</Link> : null}
    </nav>
  );
}

/** Above a filtered list: the filters it left out, how many rows match, and their CSV export. */
export function ListSummary({
  list: { errors, count },
  one,
  many,
  exportHref,
}: {
  list: { errors: Record<string, string>; count: ListCount };
  one: string;
  many: string;
  exportHref: string;
}) {
  const ignored = Object.values(errors);
  return (
    <>
      {ignored.length > 0 ? (
        <Alert kind="warn" title="Some filters were left out">
          <ul>
            {ignored.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      <p className="muted" role="status">
        {matchLine(count, one, many)}
      </p>
      <CsvExport href={exportHref} rows={count} noun={many} />
    </>
  );
}

/** A filter form's end: the list's order kept, and the buttons that apply the filters or clear them. */
export function FilterActions({ query, clearHref }: { query: ListQuery; clearHref: string }) {
  return (
    <>
      <input type="hidden" name="sort" value={query.sort} />
      <input type="hidden" name="dir" value={query.dir} />
      <div className="actions">
        <button type="submit" className="button button-primary">
          Apply
        </button>
        <Link to={clearHref}>Clear the filters</Link>
      </div>
    </>
  );
}
