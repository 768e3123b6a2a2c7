import { sql } from "drizzle-orm";
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
import { readListQuery, type ListQuery } from "~/domain/listing";
import { describeAuditRows } from "./audit-subjects.server";
import { entity, usernameColumn, type Entity } from "./data-browser-columns.server";
import { countAfterEstimate, listCsv, listView, listWhere } from "./listing.server";
import { memberListing } from "./member-listing.server";

/**
 * The admins' data browser (/db/{entity}/{id?}): every main table as a list with filters on its
 * columns, keyset pages and CSV export, and each record on its own. Read-only: writes go
 * through the pages that own them. Secrets (password hashes, session ids, tokens, capability
 * hashes, client secrets, mail bodies with their links) never appear; a session is named by
 * its code, as the member's own security page names it.
 */

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
    words: { status: "membership" },
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
    labels: { nzStatus: "Status", nzUpdated: "Updated at the notary" },
    words: { nzStatus: "notarize" },
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
  audit_log: {
    ...entity(auditLog, {
      title: "Audit log",
      shown: ["createdAt", "action", "subject", "actor", "agent", "ip"],
      link: "action",
      joins: sql`left join ${users} as "actor" on "actor"."id" = ${auditLog.actorUserId}
               left join ${users} as "agent" on "agent"."id" = ${auditLog.agentUserId}`,
      extra: [
        // The page shows it in words (describeAuditRows); the CSV keeps the record's kind and id.
        {
          key: "subject",
          label: "Concerning",
          kind: "text",
          sortable: false,
          select: sql`${auditLog.entity} || coalesce(':' || ${auditLog.entityId}, '')`,
        },
        usernameColumn("actor", "Who"),
        usernameColumn("agent", "Representing"),
      ],
      members: { actor: "actorUserId", agent: "agentUserId", subject: "subjectMember" },
      labels: { ip: "Address" },
      words: { action: "auditAction" },
    }),
    describe: describeAuditRows,
  },
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
    columns: columns.map(({ key, label: text, kind, filter, sortable, words }) => ({
      key,
      label: text,
      kind,
      filter: filter ?? null,
      sortable: sortable === true,
      words: words ?? null,
      member: entity.members?.[key] ?? null,
    })),
    rows: (entity.describe ? await entity.describe(db, page.rows) : page.rows).map((row) =>
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
 * The index of the browser: each kind of record with how many there are. A table's estimate,
 * read as the planner reads it (the rows per page of its last ANALYZE times the pages it has now;
 * none before a first ANALYZE), stands only far past the cap of a list's count; below it the rows
 * are counted.
 */
export async function entityIndex(db: Database) {
  const rows = rowsOf<{ table: string; n: string | number | null }>(
    await db.execute(
      sql`select relname as table,
            case when reltuples >= 0 and relpages > 0
              then (reltuples / relpages * (pg_relation_size(oid) / current_setting('block_size')::int))::bigint
              else null end as n
          from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace`,
    ),
  );
  const estimates = new Map(rows.map((r) => [r.table, r.n === null ? Number.NaN : Number(r.n)]));
  const tableOf: Record<string, string> = { members: "users", respondents: "directory_respondents" };
  const tables = await Promise.all(
    Object.entries(ENTITIES).map(async ([name, e]) => {
      const estimate = estimates.get(tableOf[name] ?? name) ?? Number.NaN;
      const count = await countAfterEstimate(db, e.listing, listWhere(e.listing, {}), estimate);
      return { name, title: e.title, count };
    }),
  );
  return { view: "index" as const, tables };
}
