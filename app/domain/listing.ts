import { z } from "zod";
import { listSearch } from "./list-search";

export { listSearch };

/**
 * The admins' long lists (members, the data browser): columns, filters from the query string,
 * keyset cursors and CSV lines. Pure; app/services/listing.server.ts runs them on the database.
 */

export type ColumnKind = "text" | "number" | "date" | "boolean";

/** How a column can be filtered from the query string. */
export type ColumnFilter =
  /** `?{key}=text`: the column contains it, whatever its case. */
  | { kind: "contains" }
  /** `?{key}=value`: the column is one of the options (or any value when none are listed). */
  | { kind: "equals"; options?: readonly string[] }
  /** `?{key}_from=&{key}_to=`: dates, both ends included, as YYYY-MM-DD. */
  | { kind: "range" }
  /** `?{key}=yes|no`. */
  | { kind: "boolean" };

export type ListColumn = {
  key: string;
  label: string;
  kind: ColumnKind;
  sortable?: boolean;
  filter?: ColumnFilter;
};

export type SortDirection = "asc" | "desc";

/** A position in a list: the sort value and the id of the row it follows or precedes. */
export type Cursor = { v: string | number | boolean | null; id: string | number };

export type FilterValue = string | { from?: string; to?: string };

export type ListQuery = {
  sort: string;
  dir: SortDirection;
  /** Rows after this cursor (the next page), or before it (the previous page). */
  after: Cursor | null;
  before: Cursor | null;
  filters: Record<string, FilterValue>;
};

export const LIST_PAGE_SIZE = 50;
/** How far a list counts its rows; past it, the database's estimate stands in ("about 45,000"). */
export const COUNT_CAP = 1_000;

const cursorSchema = z.object({
  v: z.union([z.string().max(500), z.number().finite(), z.boolean(), z.null()]),
  id: z.union([z.string().max(100), z.number().int()]),
});

const toBase64Url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromBase64Url = (text: string) =>
  new TextDecoder("utf-8", { fatal: true }).decode(
    Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0)),
  );

export function encodeCursor(cursor: Cursor): string {
  return toBase64Url(JSON.stringify(cursor));
}

/** A cursor from the query string; anything that is not one is no cursor (the first page). */
export function decodeCursor(text: string | null | undefined): Cursor | null {
  if (!text || text.length > 1_000) return null;
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(fromBase64Url(text)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const isoDay = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (text: string) => {
  if (!isoDay.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
};

/**
 * The list's query from the URL: sort, direction, cursor and each column's filter. A value
 * that cannot be used is left out and named in `errors`, so the page says why it was ignored.
 */
export function readListQuery(
  params: URLSearchParams,
  columns: readonly Pick<ListColumn, "key" | "label" | "sortable" | "filter">[],
  defaults: { sort: string; dir: SortDirection },
): { query: ListQuery; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const sortable = columns.filter((c) => c.sortable).map((c) => c.key);
  let sort = params.get("sort") ?? defaults.sort;
  if (!sortable.includes(sort)) {
    if (params.has("sort")) errors.sort = `A list cannot be sorted by "${sort.slice(0, 40)}"`;
    sort = defaults.sort;
  }
  const dirParam = params.get("dir");
  const dir: SortDirection = dirParam === "asc" || dirParam === "desc" ? dirParam : defaults.dir;
  const filters: Record<string, FilterValue> = {};
  for (const column of columns) {
    const filter = column.filter;
    if (!filter) continue;
    if (filter.kind === "range") {
      const range: { from?: string; to?: string } = {};
      for (const end of ["from", "to"] as const) {
        const value = params.get(`${column.key}_${end}`)?.trim();
        if (!value) continue;
        if (isDay(value)) range[end] = value;
        else errors[`${column.key}_${end}`] = `${column.label}: enter a date as YYYY-MM-DD`;
      }
      if (range.from && range.to && range.from > range.to) {
        errors[`${column.key}_to`] = `${column.label}: the end comes before the start`;
      } else if (range.from || range.to) filters[column.key] = range;
      continue;
    }
    const value = params.get(column.key)?.trim();
    if (!value) continue;
    if (value.length > 200) {
      errors[column.key] = `${column.label}: use at most 200 characters`;
    } else if ([...value].some((c) => c.charCodeAt(0) < 32)) {
      errors[column.key] = `${column.label}: leave out control characters`;
    } else if (filter.kind === "boolean") {
      if (value === "yes" || value === "no") filters[column.key] = value;
      else errors[column.key] = `${column.label}: choose yes or no`;
    } else if (filter.kind === "equals" && filter.options && !filter.options.includes(value)) {
      errors[column.key] = `${column.label}: "${value.slice(0, 40)}" is not one of the choices`;
    } else filters[column.key] = value;
  }
  const after = decodeCursor(params.get("after"));
  const before = after ? null : decodeCursor(params.get("before"));
  return { query: { sort, dir, after, before, filters }, errors };
}

/**
 * A CSV cell (RFC 4180), safe to open in a spreadsheet: text starting with =, +, -, @ (or a
 * tab or carriage return) is read as a formula there, so it gets a leading apostrophe.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text =
    value instanceof Date ? value.toISOString() : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
