import { z } from "zod";
import { listSearch } from "./list-search";
import { holdsNul } from "./requests";
import type { Vocabulary } from "./vocabularies";

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

/** The SQL types a list sorts by or names its rows by: a cursor's parts are cast to them. */
export type SqlType = "text" | "uuid" | "integer" | "bigint" | "numeric" | "timestamptz" | "date" | "boolean";

export type ListColumn = {
  key: string;
  label: string;
  kind: ColumnKind;
  /** The SQL type of the value the list sorts by, when it is not the kind's (`KIND_TYPE`). */
  type?: SqlType;
  sortable?: boolean;
  filter?: ColumnFilter;
  /** The list of codes its values come from: the page shows them in words, the CSV as they are. */
  words?: Vocabulary;
};

/** The SQL type a column of each kind sorts by: numbers compare as numeric, whatever their column holds. */
export const KIND_TYPE: Record<ColumnKind, SqlType> = {
  text: "text",
  number: "numeric",
  date: "timestamptz",
  boolean: "boolean",
};

export const sortTypeOf = (column: Pick<ListColumn, "kind" | "type">): SqlType => column.type ?? KIND_TYPE[column.kind];

export type SortDirection = "asc" | "desc";

/** A position in a list: the sort value and the id of the row it follows or precedes. */
export type Cursor = { v: string | number | boolean | null; id: string | number };

/** A cursor whose parts read as their SQL types: the only kind a query is made with. */
export type SqlCursor = { v: string; id: string };

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
export { COUNT_CAP } from "./list-count";

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

const INTEGER_RANGE = [-(2n ** 31n), 2n ** 31n - 1n] as const;
const BIGINT_RANGE = [-(2n ** 63n), 2n ** 63n - 1n] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// PostgreSQL's own text of a numeric (no exponent: the database never writes one for these columns).
const NUMERIC = /^(-?\d+(\.\d+)?|NaN|-?Infinity)$/;
// A day, a time of day and an offset from UTC (to the second, as old local times have), as
// PostgreSQL writes a timestamptz; the ISO form with a T and a Z as well.
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T]([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.\d{1,6})?(?:Z|[+-](?:0\d|1[0-5])(?::?[0-5]\d(?::[0-5]\d)?)?)?)?$/;

/** A calendar day that exists: 2024-02-29 does, 2025-02-29 and year 0 do not. */
function realDay(year: number, month: number, day: number): boolean {
  if (year < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function wholeIn(text: string, [min, max]: readonly [bigint, bigint]): boolean {
  if (!/^-?\d{1,20}$/.test(text)) return false;
  const value = BigInt(text);
  return value >= min && value <= max;
}

/**
 * A cursor's value or id as the text of a SQL type, or null when it cannot be one: the cast in
 * the query would fail on it ("invalid input syntax for type uuid"), or compare it with a value
 * of another type. Only the forms PostgreSQL writes itself are taken, and no text PostgreSQL
 * cannot hold (U+0000).
 */
export function sqlText(value: Cursor["v"], type: SqlType): string | null {
  if (value === null) return null;
  if (typeof value === "number" && !Number.isFinite(value)) return null;
  const text = String(value);
  switch (type) {
    case "text":
      return holdsNul(text) ? null : text;
    case "uuid":
      return UUID.test(text) ? text : null;
    case "integer":
      return wholeIn(text, INTEGER_RANGE) ? text : null;
    case "bigint":
      return wholeIn(text, BIGINT_RANGE) ? text : null;
    case "numeric":
      return typeof value !== "boolean" && NUMERIC.test(text) ? text : null;
    case "boolean":
      return text === "true" || text === "false" ? text : null;
    case "date":
    case "timestamptz": {
      if (typeof value !== "string") return null;
      if (text === "infinity" || text === "-infinity") return text;
      const match = TIMESTAMP.exec(text);
      if (!match || (type === "date" && match[4] !== undefined)) return null;
      return realDay(Number(match[1]), Number(match[2]), Number(match[3])) ? text : null;
    }
  }
}

/**
 * A cursor from a URL against the list it is used with: its value as the sort column's type, its
 * id as the rows' id type. A cursor made under another sort, or made up, that does not fit is
 * no cursor (null): the list's first page.
 */
export function fitCursor(cursor: Cursor, types: { value: SqlType; id: SqlType }): SqlCursor | null {
  const v = sqlText(cursor.v, types.value);
  const id = sqlText(cursor.id, types.id);
  return v === null || id === null ? null : { v, id };
}

const CURSOR_REFUSED =
  "The page asked for is not a page of this list in this order: the list starts from its first page";

const isoDay = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (text: string) => {
  if (!isoDay.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
};

/**
 * The list's query from the URL: sort, direction, cursor and each column's filter. A value
 * that cannot be used is left out and named in `errors`, so the page says why it was ignored;
 * a cursor that does not fit the sort's column or the rows' `idType` gives the first page.
 */
export function readListQuery(
  params: URLSearchParams,
  columns: readonly (Pick<ListColumn, "key" | "label" | "sortable" | "filter"> &
    Partial<Pick<ListColumn, "kind" | "type">>)[],
  defaults: { sort: string; dir: SortDirection },
  idType: SqlType,
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
  const sortColumn = columns.find((c) => c.key === sort);
  const types = { value: sortColumn?.type ?? KIND_TYPE[sortColumn?.kind ?? "text"], id: idType };
  const position = (name: "after" | "before") => {
    if (!params.has(name)) return null;
    const decoded = decodeCursor(params.get(name));
    const fitted = decoded && fitCursor(decoded, types);
    if (!fitted) errors[name] = CURSOR_REFUSED;
    return fitted;
  };
  const after = position("after");
  const before = params.has("after") ? null : position("before");
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
