import { COMPLIMENTARY_STATUS } from "~/domain/complimentary";
import { and, inArray, isNull, sql, type SQL } from "drizzle-orm";
import type { AppServices } from "~/context";
import { fixedQuery } from "~/db/prepared.server";
import { rowsOf } from "~/db/client.server";
import {
  causes,
  countries,
  memberSearchText,
  couponRedemptions,
  coupons,
  nolEntries,
  plans,
  subscriptionStatus,
  users,
} from "~/db/schema";
import { z } from "zod";
import { readListQuery, type FilterValue, type ListQuery } from "~/domain/listing";
import { audit, reachedMembers } from "./audit.server";
import type { JobDefinition } from "./queue.server";
import { listCsv, listIds, listView, type Listing } from "./listing.server";

/**
 * The admins' members list (/members) at community scale: search, filters, sort by any shown
 * column, keyset pages, a capped count, bulk actions and CSV export.
 */

const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const text = (value: FilterValue) => (typeof value === "string" ? value : "");

export const MEMBER_ROLES = ["admin", "nolCreator", "nolTester", "none"] as const;
export const MEMBER_STATUSES = [...subscriptionStatus.enumValues, COMPLIMENTARY_STATUS, "none"] as const;

export const memberListing: Listing = {
  from: sql`${users}`,
  id: { expr: sql`${users.id}`, type: "uuid" },
  columns: [
    {
      key: "username",
      label: "Username",
      kind: "text",
      sortable: true,
      select: sql`${users.username}`,
      sortBy: sql`lower(${users.username})`,
    },
    {
      key: "email",
      label: "E-mail",
      kind: "text",
      sortable: true,
      select: sql`${users.email}`,
      sortBy: sql`lower(${users.email})`,
    },
    {
      key: "name",
      label: "Name",
      kind: "text",
      sortable: true,
      select: sql`${users.name}`,
      sortBy: sql`coalesce(lower(${users.name}), '')`,
    },
    {
      key: "country",
      label: "Country",
      kind: "text",
      sortable: true,
      select: sql`${users.countryCode}`,
      sortBy: sql`coalesce(${users.countryCode}, '')`,
      filter: { kind: "equals" },
      where: (value) => sql`${users.countryCode} = upper(${text(value)})`,
    },
    {
      key: "status",
      label: "Membership",
      kind: "text",
      sortable: true,
      select: sql`${users.subscriptionStatus}`,
      sortBy: sql`coalesce(${users.subscriptionStatus}, '')`,
      filter: { kind: "equals", options: MEMBER_STATUSES },
      words: "membership",
      where: (value) =>
        value === "none" ? sql`${users.subscriptionStatus} is null` : sql`${users.subscriptionStatus} = ${text(value)}`,
    },
    {
      key: "plan",
      label: "Plan",
      kind: "text",
      sortable: true,
      select: sql`${users.subscriptionPlanId}`,
      sortBy: sql`coalesce(${users.subscriptionPlanId}, '')`,
      filter: { kind: "equals" },
    },
    { key: "admin", label: "Admin", kind: "boolean", select: sql`${users.admin}` },
    { key: "nolCreator", label: "NoL creator", kind: "boolean", select: sql`${users.nolCreator}` },
    { key: "nolTester", label: "NoL tester", kind: "boolean", select: sql`${users.nolTester}` },
    { key: "setup", label: "Setup finished", kind: "boolean", select: sql`not ${users.needsSetup}` },
    {
      key: "joined",
      label: "Joined",
      kind: "date",
      sortable: true,
      select: sql`${users.createdAt}`,
      filter: { kind: "range" },
    },
    {
      key: "seen",
      label: "Last seen",
      kind: "date",
      sortable: true,
      select: sql`${users.lastSeenAt}`,
      sortBy: sql`coalesce(${users.lastSeenAt}, '-infinity'::timestamptz)`,
      filter: { kind: "range" },
    },
  ],
  filters: [
    {
      key: "q",
      label: "Search",
      filter: { kind: "contains" },
      // The expression of the trigram index users_search_trgm_idx, so the search uses it.
      where: (value) => sql`${memberSearchText(users)} like ${like(text(value).toLowerCase())}`,
      // Three characters make a trigram: shorter text matches too many members to narrow.
      narrows: (value) => text(value).length >= 3,
    },
    {
      key: "role",
      label: "Role",
      filter: { kind: "equals", options: MEMBER_ROLES },
      where: (value) => {
        switch (value) {
          case "admin":
            return sql`${users.admin}`;
          case "nolCreator":
            return sql`${users.nolCreator}`;
          case "nolTester":
            return sql`${users.nolTester}`;
          default:
            return sql`not (${users.admin} or ${users.nolCreator} or ${users.nolTester})`;
        }
      },
    },
    {
      key: "ids",
      label: "Members ticked",
      filter: { kind: "equals" },
      where: (value) =>
        sql`${users.id} in (${sql.join(
          text(value)
            .split(",")
            .map((id) => sql`${id}::uuid`),
          sql`, `,
        )})`,
    },
    {
      key: "coupon",
      label: "Coupon used",
      filter: { kind: "equals" },
      where: (value) =>
        sql`exists (select 1 from ${couponRedemptions} where ${couponRedemptions.userId} = ${users.id} and ${couponRedemptions.couponId} = ${text(value)})`,
    },
    {
      key: "cause",
      label: "Cause with a NoL",
      filter: { kind: "equals" },
      where: (value) =>
        sql`exists (select 1 from ${nolEntries} where ${nolEntries.userId} = ${users.id} and ${nolEntries.causeCode} = upper(${text(value)}))`,
    },
  ],
};

const DEFAULT_ORDER = { sort: "joined", dir: "desc" } as const;

/** The list's query from the page's URL, with what could not be read named. */
export function memberListQuery(params: URLSearchParams) {
  const fields = [...memberListing.columns, ...memberListing.filters!].filter((f) => f.key !== "ids");
  const read = readListQuery(params, fields, DEFAULT_ORDER, memberListing.id.type);
  // The members ticked for an export: ?ids=…&ids=…
  if (params.has("ids")) {
    const ids = z.array(z.string().uuid()).min(1).max(500).safeParse(params.getAll("ids"));
    if (ids.success) read.query.filters.ids = ids.data.join(",");
    else read.errors.ids = "Members ticked: at most 500 members, each by its id";
  }
  return read;
}

/** Filters that read more than the members' rows: a list with one is never kept (owned-cache.server.ts). */
const FILTERS_BEYOND_USERS = ["coupon", "cause"];

export async function memberList(services: AppServices, query: ListQuery) {
  const read = () => listView(services.db, memberListing, query);
  if (FILTERS_BEYOND_USERS.some((key) => query.filters[key] !== undefined)) return read();
  return services.owned.read(`members:${JSON.stringify(query)}`, "users", read);
}

export function memberCsv(services: AppServices, query: ListQuery) {
  return listCsv(services.db, memberListing, query);
}

/** E-mails a message to the given members (disabled accounts are left out); the members it reached. */
export async function mailMembers(
  services: AppServices,
  ids: readonly string[],
  message: { subject: string; body: string },
): Promise<{ id: string; username: string }[]> {
  if (ids.length === 0) return [];
  const rows = await services.db
    .select({ id: users.id, email: users.email, username: users.username })
    .from(users)
    .where(and(inArray(users.id, [...ids]), isNull(users.disabledAt)));
  for (const member of rows) {
    await services.providers.mail.send({
      to: member.email,
      template: "admin-message",
      subject: message.subject,
      text: `Hello ${member.username},\n\n${message.body}\n`,
    });
  }
  return rows.map(({ id, username }) => ({ id, username }));
}

const filterValue = z.union([
  z.string().max(200),
  z.object({ from: z.string().optional(), to: z.string().optional() }),
]);

/** E-mails every member a filter matches, in batches, in the background; audited when done. */
export const membersMailJob: JobDefinition<{
  filters: Record<string, z.infer<typeof filterValue>>;
  subject: string;
  body: string;
  actor: { actorUserId: string | null; agentUserId: string | null; ip?: string | null };
}> = {
  name: "members-mail",
  data: z.object({
    filters: z.record(filterValue),
    subject: z.string().min(1).max(200),
    body: z.string().min(1).max(10_000),
    actor: z.object({
      actorUserId: z.string().uuid().nullable(),
      agentUserId: z.string().uuid().nullable(),
      ip: z.string().max(100).nullish(),
    }),
  }),
  // A retry would mail the members reached before the failure again.
  retry: { limit: 0, delaySeconds: 30 },
  timeoutSeconds: 3_600,
  async run(services, data) {
    const reached: { id: string; username: string }[] = [];
    for await (const ids of listIds(services.db, memberListing, { ...DEFAULT_ORDER, filters: data.filters })) {
      reached.push(...(await mailMembers(services, ids, data)));
    }
    await audit(services.db, data.actor, "members.bulk.email", "user", null, {
      selection: { filters: data.filters },
      ...reachedMembers(reached),
    });
  },
};

type Choice = { value: string; label: string };

/** The rows of a choice list as JSON: [{ value, label }, …] in the order of their labels. */
const choiceList = (rows: SQL) =>
  sql`(select coalesce(json_agg(json_build_object('value', c.value, 'label', c.label) order by c.label), '[]'::json) from (${rows}) c)`;

/** The filters' choices in one query, its text made once (every view of the list reads it). */
const CHOICES_QUERY = fixedQuery(sql`select
    ${choiceList(sql`select ${plans.id} as value, ${plans.title} as label from ${plans} where ${plans.kind} = 'subscription'`)} as plans,
    ${choiceList(sql`select ${coupons.id} as value, ${coupons.name} as label from ${coupons} order by ${coupons.name} limit 500`)} as coupons,
    ${choiceList(sql`select ${countries.code} as value, ${countries.name} as label from ${countries}`)} as countries,
    ${choiceList(sql`select ${causes.code} as value, ${causes.name} as label from ${causes}`)} as causes`);

/**
 * The choices of the list's filters: the membership plans (a donation or a credit is a payment,
 * not a plan a member is on), coupons, countries and causes there are.
 */
export function memberListChoices(services: AppServices) {
  return services.reference.read("member-list-choices", async () => {
    const result = await services.db.execute(CHOICES_QUERY);
    const [row] = rowsOf<Record<"plans" | "coupons" | "countries" | "causes", Choice[]>>(result);
    return { plans: row!.plans, coupons: row!.coupons, countries: row!.countries, causes: row!.causes };
  });
}
