import { Link } from "@remix-run/react";
import { listSearch } from "~/domain/list-search";
import type { ListQuery } from "~/domain/listing";

/** A column header that sorts the list by its column; a second click turns the order round. */
export function SortHeader({ column, label, query }: { column: string; label: string; query: ListQuery }) {
  const current = query.sort === column;
  const dir = current && query.dir === "asc" ? "desc" : "asc";
  return (
    <th scope="col" aria-sort={current ? (query.dir === "asc" ? "ascending" : "descending") : undefined}>
      <Link to={`?${listSearch({ ...query, sort: column, dir })}`}>
        {label}
        {current ? <span aria-hidden="true">{query.dir === "asc" ? " ▲" : " ▼"}</span> : null}
        <span className="visually-hidden">{`, sort ${dir === "asc" ? "ascending" : "descending"}`}</span>
      </Link>
    </th>
  );
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
