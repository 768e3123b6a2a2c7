import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { rowsOf, type Database } from "~/db/client.server";
import {
  auditLog,
  claims,
  couponDiscounts,
  couponRedemptions,
  coupons,
  directoryRespondents,
  errorReports,
  formEntries,
  mailOutbox,
  nolEntries,
  notarizations,
  notices,
  payments,
  plans,
  sessions,
  subscriptions,
  supportRequests,
  users,
  webhookEvents,
} from "~/db/schema";
import { notFound } from "~/domain/errors";
import { COUNT_CAP, KIND_TYPE, readListQuery, type ColumnKind, type ListQuery, type SqlType } from "~/domain/listing";
import { countAfterEstimate, listCsv, listView, listWhere, type Listing, type SqlColumn } from "./listing.server";
import { memberListing } from "./member-listing.server";

/**
 * The admins' data browser (/db/{entity}/{id?}): every main table as a list with filters on its
 * columns, keyset pages and CSV export, and each record on its own. Read-only: writes go
 * through the pages that own them. Secrets (password hashes, session ids, tokens, capability
 * hashes, client secrets, mail bodies with their links) never appear; a session is named by
 * its code, as the member's own security page names it.
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

type Entity = {
  title: string;
  listing: Listing;
  /** The columns the list shows (all of them on the record's own page). */
  shown: string[];
  /** The column whose cell opens the record. */
  link: string;
  /** Columns that name a member, with the column holding that member's id: each opens the member's page. */
  members?: Record<string, string>;
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

function entity(
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
      columns: [...columnsOf(table, options.overrides), ...(options.extra ?? [])].map((c) =>
        options.labels?.[c.key] ? { ...c, label: options.labels[c.key]! } : c,
      ),
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
function usernameColumn(alias: string, label: string): SqlColumn {
  return {
    key: alias,
    label,
    kind: "text",
    sortable: false,
    select: sql`${sql.identifier(alias)}.${sql.identifier("username")}`,
    filter: { kind: "contains" },
  };
}

/** A session's code: its id, which is its secret, never leaves the server. */
const sessionCodeSql = sql`left(encode(sha256(convert_to(${sessions.id}, 'UTF8')), 'hex'), 16)`;

export const ENTITIES: Record<string, Entity> = {
  members: {
    title: "Members",
    listing: memberListing,
    shown: ["username", "email", "status", "plan", "joined", "seen"],
    link: "username",
  },
  sessions: entity(sessions, {
    title: "Sessions",
    shown: ["userId", "carrier", "ip", "createdAt", "lastSeenAt", "revokedAt"],
    link: "userId",
    id: { expr: sessionCodeSql, type: "text" },
    overrides: {
      id: {
        key: "id",
        label: "Code",
        kind: "text",
        sortable: true,
        select: sessionCodeSql,
        filter: { kind: "equals" },
      },
    },
  }),
  plans: entity(plans, { title: "Plans", shown: ["id", "title", "kind", "amountCents", "currency", "interval"] }),
  coupons: entity(coupons, {
    title: "Coupons",
    shown: ["id", "name", "duration", "percentOff", "amountOff", "timesRedeemed", "valid"],
  }),
  coupon_discounts: entity(couponDiscounts, {
    title: "Coupon offers",
    shown: ["couponSlug", "couponId", "groupName", "active"],
  }),
  coupon_redemptions: entity(couponRedemptions, {
    title: "Coupon redemptions",
    shown: ["couponId", "email", "amountCents", "listAmountCents", "redeemedAt"],
  }),
  subscriptions: entity(subscriptions, {
    title: "Subscriptions",
    shown: ["userId", "planId", "status", "provider", "currentPeriodEnd", "createdAt"],
  }),
  payments: entity(payments, {
    title: "Payments",
    shown: ["email", "kind", "amountCents", "currency", "status", "createdAt"],
  }),
  nol_entries: entity(nolEntries, {
    title: "NoL entries",
    shown: ["id", "form", "userId", "causeCode", "descriptiveVersion", "round", "updatedAt"],
  }),
  claims: entity(claims, { title: "Claims", shown: ["id", "claimantId", "causeCode", "nolVersion", "createdAt"] }),
  notices: entity(notices, { title: "Notices", shown: ["id", "claimId", "roundCnt", "createdAt"] }),
  notarizations: entity(notarizations, {
    title: "Notarizations",
    shown: ["id", "noticeId", "provider", "nzStatus", "nzUpdated"],
  }),
  form_entries: entity(formEntries, {
    title: "Form entries",
    shown: ["formId", "entryNumber", "userId", "reviewStatus", "createdAt"],
  }),
  respondents: entity(directoryRespondents, { title: "Respondents", shown: ["name", "type", "agency", "place"] }),
  webhook_events: entity(webhookEvents, {
    title: "Webhook events",
    shown: ["provider", "type", "eventId", "receivedAt", "processedAt", "error"],
    link: "eventId",
  }),
  mail_outbox: entity(mailOutbox, {
    title: "Mail outbox",
    shown: ["createdAt", "to", "subject", "status"],
    link: "subject",
  }),
  error_reports: entity(errorReports, { title: "Error reports", shown: ["time", "href", "message"], link: "message" }),
  support_requests: entity(supportRequests, {
    title: "Support requests",
    shown: ["createdAt", "email", "subject", "source"],
    link: "subject",
  }),
  audit_log: entity(auditLog, {
    title: "Audit log",
    shown: ["createdAt", "action", "entity", "entityId", "actor", "agent", "ip"],
    link: "action",
    joins: sql`left join ${users} as "actor" on "actor"."id" = ${auditLog.actorUserId}
               left join ${users} as "agent" on "agent"."id" = ${auditLog.agentUserId}`,
    extra: [usernameColumn("actor", "Who"), usernameColumn("agent", "Representing")],
    members: { actor: "actorUserId", agent: "agentUserId" },
    labels: { ip: "Address" },
  }),
};

export function entityOf(name: string): Entity {
  const found = Object.hasOwn(ENTITIES, name) ? ENTITIES[name] : undefined;
  if (!found) throw notFound();
  return found;
}

/** The list's query: by default its newest records first, by the id. */
export function entityQuery(entity: Entity, params: URLSearchParams) {
  const byDate = entity.listing.columns.find((c) => c.key === "createdAt" || c.key === "joined");
  return readListQuery(
    params,
    entity.listing.columns,
    { sort: byDate?.key ?? "id", dir: "desc" },
    entity.listing.id.type,
  );
}

export async function entityList(db: Database, name: string, params: URLSearchParams) {
  const entity = entityOf(name);
  const { query, errors } = entityQuery(entity, params);
  const { count, ...page } = await listView(db, entity.listing, query);
  const columns = entity.shown.map((key) => entity.listing.columns.find((c) => c.key === key)!);
  return {
    view: "list" as const,
    name,
    title: entity.title,
    link: entity.link,
    columns: columns.map(({ key, label: text, kind, filter, sortable }) => ({
      key,
      label: text,
      kind,
      filter: filter ?? null,
      sortable: sortable === true,
      member: entity.members?.[key] ?? null,
    })),
    rows: page.rows.map((row) =>
      Object.fromEntries([
        ["id", row.id],
        ...[...entity.shown, ...Object.values(entity.members ?? {})].map((key) => [key, row[key] ?? null]),
      ]),
    ),
    previous: page.previous,
    next: page.next,
    count,
    query,
    errors,
  };
}

export function entityCsv(db: Database, name: string, query: ListQuery) {
  return listCsv(db, entityOf(name).listing, query);
}

/** One record, every column but the secret ones. */
export async function entityRecord(db: Database, name: string, id: string) {
  const entity = entityOf(name);
  const { listing } = entity;
  if (listing.id.type === "uuid" && !/^[0-9a-f-]{36}$/i.test(id)) throw notFound();
  if (listing.id.type === "bigint" && !/^\d{1,18}$/.test(id)) throw notFound();
  const fields = listing.columns.map((c) =>
    c.kind === "date"
      ? sql`to_char(${c.select} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as ${sql.identifier(c.key)}`
      : sql`${c.select} as ${sql.identifier(c.key)}`,
  );
  const [row] = rowsOf(
    await db.execute(
      sql`select ${sql.join(fields, sql`, `)} from ${listing.from} where ${listing.id.expr} = cast(${id} as ${sql.raw(listing.id.type)}) limit 1`,
    ),
  );
  if (!row) throw notFound();
  return {
    view: "record" as const,
    name,
    title: entity.title,
    id,
    fields: listing.columns.map((c) => ({
      key: c.key,
      label: c.label,
      value: row[c.key] === null || row[c.key] === undefined ? null : String(row[c.key]),
    })),
  };
}

/**
 * The index of the browser: each kind of record with how many there are. The planner's row
 * estimate of a table (pg_class.reltuples: -1 before its first ANALYZE, and as old as the last
 * one) stands only far past the cap of a list's count; below it the rows are counted.
 */
export async function entityIndex(db: Database) {
  const rows = rowsOf<{ table: string; n: string | number }>(
    await db.execute(
      sql`select relname as table, reltuples::bigint as n from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace`,
    ),
  );
  const estimates = new Map(rows.map((r) => [r.table, Number(r.n)]));
  const tableOf: Record<string, string> = { members: "users", respondents: "directory_respondents" };
  const tables = await Promise.all(
    Object.entries(ENTITIES).map(async ([name, e]) => {
      const estimate = estimates.get(tableOf[name] ?? name) ?? Number.NaN;
      const count = await countAfterEstimate(db, e.listing, listWhere(e.listing, {}), estimate);
      return { name, title: e.title, count };
    }),
  );
  return { view: "index" as const, tables, cap: COUNT_CAP };
}
