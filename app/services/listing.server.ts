import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Database } from "~/db/client.server";
import { giveWay } from "~/lib/give-way.server";
import {
  COUNT_CAP,
  csvLine,
  encodeCursor,
  fitCursor,
  LIST_PAGE_SIZE,
  sortTypeOf,
  type ColumnFilter,
  type ColumnKind,
  type FilterValue,
  type ListColumn,
  type ListQuery,
  type SqlCursor,
  type SqlType,
} from "~/domain/listing";

/**
 * Long lists on the database, for the members list and the data browser: filters, keyset
 * pages in both directions (no OFFSET), a capped count, and CSV streamed in batches.
 */

export type SqlColumn = ListColumn & {
  /** The value shown and exported. */
  select: SQL;
  /** What the list sorts and pages by; never null (coalesce a nullable column). Defaults to `select`. */
  sortBy?: SQL;
  /** A filter of its own, when it is not a plain test of `select`. */
  where?: (value: FilterValue) => SQL | undefined;
};

/** A filter that is not a column of the list (a search, a related record). */
export type ListFilter = {
  key: string;
  label: string;
  filter: ColumnFilter;
  where: (value: FilterValue) => SQL | undefined;
  /**
   * Whether the value can find its rows through an index of its own (a trigram search). When
   * the rows it finds are few, the list sorts them rather than walking its sort order's index
   * past all the others (listView).
   */
  narrows?: (value: FilterValue) => boolean;
};

export type Listing = {
  /** The rows' tables: `users`, or `a join b on …`. */
  from: SQL;
  /** The row's id and its SQL type, the tie-breaker of every order. */
  id: { expr: SQL; type: Extract<SqlType, "uuid" | "bigint" | "integer" | "text"> };
  columns: readonly SqlColumn[];
  filters?: readonly ListFilter[];
  /** Rows every view of the list leaves out. */
  always?: SQL;
};

export type ListRow = Record<string, unknown> & { id: string };

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The test a column's own filter makes. */
function columnWhere(column: SqlColumn, value: FilterValue): SQL | undefined {
  if (column.where) return column.where(value);
  const filter = column.filter;
  if (!filter) return undefined;
  if (typeof value !== "string") {
    const parts: SQL[] = [];
    // Days are UTC days; the end day is included: everything before the next day begins.
    if (value.from) parts.push(sql`${column.select} >= (${value.from}::date)::timestamp at time zone 'UTC'`);
    if (value.to) parts.push(sql`${column.select} < (${value.to}::date + 1)::timestamp at time zone 'UTC'`);
    return parts.length ? sql.join(parts, sql` and `) : undefined;
  }
  switch (filter.kind) {
    case "contains":
      // As text, as it is shown: a uuid, a date or a numeric has no ILIKE of its own.
      return sql`${column.select}::text ilike ${like(value)}`;
    case "boolean":
      return value === "yes" ? sql`${column.select} is true` : sql`${column.select} is not true`;
    default:
      return sql`${column.select}::text = ${value}`;
  }
}

/** The filters of a query, as one SQL condition. */
export function listWhere(listing: Listing, filters: ListQuery["filters"]): SQL {
  const parts: SQL[] = listing.always ? [listing.always] : [];
  for (const [key, value] of Object.entries(filters)) {
    const column = listing.columns.find((c) => c.key === key);
    const extra = listing.filters?.find((f) => f.key === key);
    const condition = column ? columnWhere(column, value) : extra?.where(value);
    if (condition) parts.push(sql`(${condition})`);
  }
  return parts.length ? sql.join(parts, sql` and `) : sql`true`;
}

function sortColumn(listing: Listing, key: string): SqlColumn {
  const column = listing.columns.find((c) => c.key === key && c.sortable);
  if (!column) throw new Error(`The list has no sortable column ${key}`);
  return column;
}

/** A selected value as the page shows it: dates as ISO text, counts as numbers. */
function selected(column: SqlColumn): SQL {
  if (column.kind === "date") {
    return sql`to_char(${column.select} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
  }
  return column.select;
}

function unindexed(expr: SQL, kind: ColumnKind): SQL {
  switch (kind) {
    case "date":
      return sql`(${expr} + interval '0 seconds')`;
    case "number":
      return sql`(${expr} + 0)`;
    case "boolean":
      return sql`(${expr} and true)`;
    default:
      return sql`(${expr} || '')`;
  }
}

/**
 * Reads one batch of rows from a position, in the list's order or against it. With `countTo`,
 * each row also carries the count of the rows that match, up to that many (`__count`).
 */
async function readBatch(
  db: Database,
  listing: Listing,
  query: Pick<ListQuery, "sort" | "dir" | "filters">,
  position: { after?: SqlCursor | null; before?: SqlCursor | null },
  limit: number,
  narrowed = false,
  countTo: number | null = null,
) {
  const column = sortColumn(listing, query.sort);
  // The same order, written so that no index serves it: the planner then reads the few rows
  // the narrowing filter's index finds and sorts them.
  const sortBy = narrowed ? unindexed(column.sortBy ?? column.select, column.kind) : (column.sortBy ?? column.select);
  const id = listing.id.expr;
  const backwards = Boolean(position.before);
  // Reading backwards runs the order the other way, then turns the rows round.
  const ascending = (query.dir === "asc") !== backwards;
  const cursor = position.after ?? position.before ?? null;
  const conditions = [listWhere(listing, query.filters)];
  if (cursor) {
    const value = sql`cast(${cursor.v} as ${sql.raw(sortTypeOf(column))})`;
    const cursorId = sql`cast(${cursor.id} as ${sql.raw(listing.id.type)})`;
    conditions.push(
      ascending ? sql`(${sortBy}, ${id}) > (${value}, ${cursorId})` : sql`(${sortBy}, ${id}) < (${value}, ${cursorId})`,
    );
  }
  const direction = sql.raw(ascending ? "asc" : "desc");
  const fields = listing.columns.map((c) => sql`${selected(c)} as ${sql.identifier(c.key)}`);
  if (countTo !== null) fields.push(sql`(${cappedCount(listing, conditions[0]!, countTo)}) as "__count"`);
  const rows = rowsOf(
    await db.execute(sql`
      select ${id}::text as "__id", (${sortBy})::text as "__sort", ${sql.join(fields, sql`, `)}
      from ${listing.from}
      where ${sql.join(conditions, sql` and `)}
      order by ${sortBy} ${direction}, ${id} ${direction}
      limit ${limit + 1}`),
  );
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (backwards) page.reverse();
  return { rows: page, more };
}

const cursorOf = (row: Record<string, unknown>): SqlCursor => ({ v: String(row.__sort), id: String(row.__id) });

function shape(listing: Listing, row: Record<string, unknown>): ListRow {
  const out: ListRow = { id: String(row.__id) };
  for (const c of listing.columns) {
    const value = row[c.key];
    out[c.key] = c.kind === "number" && typeof value === "string" ? Number(value) : value === undefined ? null : value;
  }
  return out;
}

/**
 * One page of the list, with the cursors of the pages on either side. With `countTo`, the
 * count of the rows that match, up to that many, comes with it (`counted`, null when the page
 * has no row to carry it).
 */
export async function listPage(
  db: Database,
  listing: Listing,
  query: ListQuery,
  pageSize = LIST_PAGE_SIZE,
  narrowed = false,
  countTo: number | null = null,
) {
  // Whoever built the query, a cursor that does not fit the list's types never reaches the database.
  const types = { value: sortTypeOf(sortColumn(listing, query.sort)), id: listing.id.type };
  const after = query.after && fitCursor(query.after, types);
  const before = !after && query.before ? fitCursor(query.before, types) : null;
  const { rows, more } = await readBatch(db, listing, query, { after, before }, pageSize, narrowed, countTo);
  const first = rows[0];
  const last = rows.at(-1);
  const hasPrevious = before ? more : Boolean(after);
  const hasNext = before ? true : more;
  return {
    rows: rows.map((r) => shape(listing, r)),
    previous: hasPrevious && first ? encodeCursor(cursorOf(first)) : null,
    next: hasNext && last ? encodeCursor(cursorOf(last)) : null,
    counted: first && countTo !== null ? Number(first.__count) : null,
  };
}

/** The rows that match, counted up to `upTo` (one past the cap says "more than the cap"). */
const cappedCount = (listing: Listing, where: SQL, upTo: number) =>
  sql`select count(*) from (select 1 from ${listing.from} where ${where} limit ${upTo}) as matching`;

/**
 * How many rows match a filter: counted up to the cap; past it only "more than the cap" is
 * known. A planner's guess at a filter's rows can be off many times over, so none is shown.
 */
export async function listCount(db: Database, listing: Listing, filters: ListQuery["filters"], cap = COUNT_CAP) {
  const [row] = rowsOf(await db.execute(sql`${cappedCount(listing, listWhere(listing, filters), cap + 1)}`));
  return countPastCap(Number(row?.count ?? 0), Number.NaN, cap);
}

/**
 * A whole table's count, given the table's estimate: one far past the cap stands (no scan);
 * otherwise the rows are counted up to the cap, and past it the estimate, or the cap, stands in.
 * The estimate is the planner's reading of the table's statistics, which imports and restores
 * refresh (ANALYZE) so that it stays within a tenth of the truth.
 */
export async function countAfterEstimate(
  db: Database,
  listing: Listing,
  where: SQL,
  estimate: number,
  cap = COUNT_CAP,
) {
  if (Number.isFinite(estimate) && estimate > cap * 2) return { n: estimate, capped: true };
  const [row] = rowsOf(await db.execute(sql`${cappedCount(listing, where, cap + 1)}`));
  return countPastCap(Number(row?.count ?? 0), estimate, cap);
}

/** A count made up to one past the cap: as it is, or past the cap the estimate, or the cap, stands in. */
function countPastCap(n: number, estimate: number, cap: number) {
  if (n <= cap) return { n, capped: false };
  return { n: Number.isFinite(estimate) ? Math.max(cap + 1, estimate) : cap + 1, capped: true };
}

/** The planner's estimate of the rows that match (it costs no scan). */
async function estimateOf(db: Database, listing: Listing, where: SQL) {
  const [plan] = rowsOf(await db.execute(sql`explain (format json) select 1 from ${listing.from} where ${where}`));
  return Math.round(planRows(plan?.["QUERY PLAN"]));
}

/** Rows a narrowing filter may find and still be sorted rather than read in index order. */
const NARROW_ROWS = 2_000;

/**
 * A page and the count. The count comes first: when a filter that has an index of its own
 * (a search) finds few rows, the page sorts those instead of walking the sort order's index.
 */
export async function listView(db: Database, listing: Listing, query: ListQuery) {
  // Unfiltered (the view a list opens on), the rows are counted with the page, up to one past
  // the cap, in one query; the estimate is asked only past the cap.
  if (Object.keys(query.filters).length === 0) {
    const { counted, ...page } = await listPage(db, listing, query, LIST_PAGE_SIZE, false, COUNT_CAP + 1);
    if (counted === null) return { ...page, count: await listCount(db, listing, query.filters) };
    const estimate =
      counted > COUNT_CAP ? await estimateOf(db, listing, listWhere(listing, query.filters)) : Number.NaN;
    return { ...page, count: countPastCap(counted, estimate, COUNT_CAP) };
  }
  const count = await listCount(db, listing, query.filters);
  const narrowing = (listing.filters ?? []).some((f) => {
    const value = query.filters[f.key];
    return value !== undefined && f.narrows?.(value) === true;
  });
  const narrowed = narrowing && !count.capped && count.n <= NARROW_ROWS;
  const { counted: _counted, ...page } = await listPage(db, listing, query, LIST_PAGE_SIZE, narrowed);
  return { ...page, count };
}

/** The top node's row estimate of an EXPLAIN (FORMAT JSON) answer, as either driver returns it. */
function planRows(plan: unknown): number {
  const parsed = typeof plan === "string" ? (JSON.parse(plan) as unknown) : plan;
  const top = Array.isArray(parsed) ? (parsed[0] as { Plan?: { "Plan Rows"?: number } }) : null;
  return top?.Plan?.["Plan Rows"] ?? Number.NaN;
}

/** The ids of every row that matches, in batches, for a bulk action on a whole filter result. */
export async function* listIds(
  db: Database,
  listing: Listing,
  query: Pick<ListQuery, "sort" | "dir" | "filters">,
  batchSize = 1_000,
): AsyncGenerator<string[]> {
  let after: SqlCursor | null = null;
  for (;;) {
    const { rows, more } = await readBatch(db, listing, query, { after }, batchSize);
    if (rows.length) yield rows.map((r) => String(r.__id));
    if (!more) return;
    after = cursorOf(rows.at(-1)!);
  }
}

/**
 * The whole filtered list as CSV, read in batches as the client takes it, so the server holds
 * one batch at a time however long the list is.
 */
export function listCsv(
  db: Database,
  listing: Listing,
  query: Pick<ListQuery, "sort" | "dir" | "filters">,
  batchSize = 1_000,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: SqlCursor | null = null;
  let started = false;
  let done = false;
  // The record's id leads each line, once: a list that shows its id column already has it.
  const idShown = listing.columns.some((c) => c.key === "id");
  const header = idShown ? [] : ["id"];
  const idOf = (r: Record<string, unknown>) => (idShown ? [] : [r.__id]);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(csvLine([...header, ...listing.columns.map((c) => c.label)])));
        return;
      }
      if (done) return;
      // A reader that takes each batch at once (a fast client) would chain every batch's read
      // without a turn of the event loop on the embedded database: each batch waits for one.
      await giveWay();
      const { rows, more } = await readBatch(db, listing, query, { after }, batchSize);
      const text = rows.map((r) => csvLine([...idOf(r), ...listing.columns.map((c) => r[c.key])])).join("");
      if (text) controller.enqueue(encoder.encode(text));
      if (!more) {
        done = true;
        controller.close();
        return;
      }
      after = cursorOf(rows.at(-1)!);
    },
  });
}
