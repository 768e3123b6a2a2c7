import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { KIND_TYPE, type ColumnKind, type SqlType } from "~/domain/listing";
import type { Vocabulary } from "~/domain/vocabularies";
import type { Database } from "~/db/client.server";
import type { Listing, SqlColumn } from "./listing.server";

/**
 * How the data browser (data-browser.server.ts) makes a table into a list: its columns with
 * their headings, kinds, filters and sort types, secrets left out.
 */

/** Columns never shown, by SQL name. */
const SECRET = new Set([
  "password_hash",
  "token_hash",
  "client_secret",
  "edit_hash",
  "view_hash",
  "text",
  "html",
  "payload",
]);

export type Entity = {
  title: string;
  listing: Listing;
  /** The columns the list shows (all of them on the record's own page). */
  shown: string[];
  /** The column whose cell opens the record. */
  link: string;
  /** Columns that name a member, with the column holding that member's id: each opens the member's page. */
  members?: Record<string, string>;
  /** Words a page of rows gets from other tables (what an audit entry was about), before it is shown. */
  describe?: (db: Database, rows: Record<string, unknown>[]) => Promise<Record<string, unknown>[]>;
};

/** Words of column names that are abbreviations or units rather than words people use. */
const COLUMN_WORDS: Record<string, string> = {
  id: "ID",
  ip: "IP address",
  url: "URL",
  cnt: "count",
  cents: "(cents)",
  nz: "notary",
  cf: "form",
  tb: "true bill",
  nol: "NoL",
};

/** A column's heading: "amountCents" → "Amount (cents)", "ip" → "IP address", "roundCnt" → "Round count". */
const label = (key: string) => {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(" ")
    .map((word) => COLUMN_WORDS[word] ?? word)
    .join(" ");
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function kindOf(column: PgColumn): ColumnKind {
  if (column.dataType === "date" || column.columnType === "PgDate") return "date";
  if (column.dataType === "number" || column.dataType === "bigint") return "number";
  if (column.dataType === "boolean") return "boolean";
  return "text";
}

/**
 * The SQL type a column sorts by, which a cursor's value is cast to. Uuids, dates and numerics
 * kept as strings are shown as text, but compare as what they are.
 */
function sortTypeOf(column: PgColumn, kind: ColumnKind): SqlType {
  if (column.columnType === "PgUUID") return "uuid";
  if (column.columnType === "PgDateString") return "date";
  if (column.columnType === "PgNumeric") return "numeric";
  return KIND_TYPE[kind];
}

/** The lowest value of each type: a nullable column sorts with its missing values first, so paging never loses them. */
const LOWEST: Record<SqlType, SQL> = {
  text: sql`''`,
  uuid: sql`'00000000-0000-0000-0000-000000000000'::uuid`,
  integer: sql`'-2147483648'::integer`,
  bigint: sql`'-9223372036854775808'::bigint`,
  numeric: sql`'-Infinity'::numeric`,
  timestamptz: sql`'-infinity'::timestamptz`,
  date: sql`'-infinity'::date`,
  boolean: sql`false`,
};

/** A table's columns as list columns: each filterable and sortable, secrets left out. */
function columnsOf(table: PgTable, overrides: Record<string, SqlColumn> = {}): SqlColumn[] {
  return Object.entries(getTableColumns(table))
    .filter(([, column]) => !SECRET.has(column.name))
    .map(([key, column]): SqlColumn => {
      if (overrides[key]) return overrides[key];
      const kind = kindOf(column);
      const isEnum = "enumValues" in column && Array.isArray(column.enumValues) && column.enumValues.length > 0;
      const select: SQL =
        column.dataType === "json" ? sql`${column}::text` : isEnum ? sql`${column}::text` : sql`${column}`;
      const type = column.dataType === "json" || isEnum ? "text" : sortTypeOf(column, kind);
      return {
        key,
        label: label(key),
        kind,
        type,
        sortable: true,
        select,
        sortBy: column.notNull ? select : sql`coalesce(${select}, ${LOWEST[type]})`,
        filter:
          kind === "date"
            ? { kind: "range" }
            : kind === "boolean"
              ? { kind: "boolean" }
              : isEnum
                ? { kind: "equals", options: (column as unknown as { enumValues: string[] }).enumValues }
                : kind === "number"
                  ? { kind: "equals" }
                  : { kind: "contains" },
      };
    });
}

export function entity(
  table: PgTable,
  options: {
    title: string;
    shown: string[];
    link?: string;
    id?: Listing["id"];
    overrides?: Record<string, SqlColumn>;
    /** Rows of other tables the list reads beside the table's (`left join …`). */
    joins?: SQL;
    /** Columns read from the joined rows. */
    extra?: SqlColumn[];
    members?: Record<string, string>;
    /** Labels other than the one made from the column's name. */
    labels?: Record<string, string>;
    /** Columns whose codes the page shows in words. */
    words?: Record<string, Vocabulary>;
  },
): Entity {
  const columns = getTableColumns(table);
  const primary = Object.values(columns).find((c) => c.primary)!;
  const idType = primary.columnType === "PgUUID" ? "uuid" : primary.dataType === "number" ? "bigint" : "text";
  return {
    title: options.title,
    listing: {
      from: options.joins ? sql`${table} ${options.joins}` : sql`${table}`,
      id: options.id ?? { expr: sql`${primary}`, type: idType },
      columns: [...columnsOf(table, options.overrides), ...(options.extra ?? [])].map((c) => ({
        ...c,
        label: options.labels?.[c.key] ?? c.label,
        words: options.words?.[c.key] ?? c.words,
      })),
    },
    shown: options.shown,
    link: options.link ?? options.shown[0]!,
    members: options.members,
  };
}

/**
 * The username of the member a row names through `alias`, joined as `left join users as alias`:
 * filtered by what it contains; not sorted (no index orders a join).
 */
export function usernameColumn(alias: string, label: string): SqlColumn {
  return {
    key: alias,
    label,
    kind: "text",
    sortable: false,
    select: sql`${sql.identifier(alias)}.${sql.identifier("username")}`,
    filter: { kind: "contains" },
  };
}
