import { and, desc, eq, ilike, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { AppServices } from "~/context";
import { causes, mailings, users } from "~/db/schema";
import { MAILING_FILTERS, type MailingFilter, type MailingsQuery } from "~/domain/mailing/admin-filters";
import { RECOVERABLE_FOR_MS } from "~/domain/mailing/round-letters";
import { MAILING_STATE_WORDS } from "~/domain/mailing/state-words";
import { roundName } from "~/domain/nol/timeline";
import { formatDateTime, formatMoney } from "~/lib/format";
import { mailingSettings } from "./settings.server";

/**
 * /admin/mailings: every letter mailed from the app, the ones that need an admin first — refused
 * by the mail house, returned to sender, lost (nothing heard for the settings' days while on its
 * way), or left unconfirmed (the mail house's answer lost past the time it may be asked again).
 */

const PAGE_SIZE = 50;
const DAY_MS = 86_400_000;
const ON_THE_WAY = ["created", "mailed", "in_transit"] as const;

/** The conditions of each kind of trouble, at `now`, for letters quiet for `lostAfterDays`. */
function troubles(now: Date, lostAfterDays: number) {
  const quietSince = new Date(now.getTime() - lostAfterDays * DAY_MS);
  const lost = and(
    inArray(mailings.state, [...ON_THE_WAY]),
    lt(sql`coalesce(${mailings.lastEventAt}, ${mailings.sendDate}, ${mailings.createdAt})`, quietSince),
  )!;
  const unconfirmed = and(
    eq(mailings.state, "sending"),
    lt(mailings.createdAt, new Date(now.getTime() - RECOVERABLE_FOR_MS)),
  )!;
  const failed = eq(mailings.state, "failed");
  const returned = eq(mailings.state, "returned_to_sender");
  return { lost, unconfirmed, failed, returned, attention: or(failed, returned, lost, unconfirmed)! };
}

function filterOf(filter: MailingFilter, t: ReturnType<typeof troubles>): SQL | undefined {
  switch (filter) {
    case "all":
      return undefined;
    case "on-the-way":
      return inArray(mailings.state, [...ON_THE_WAY, "sending"]);
    case "delivered":
      return eq(mailings.state, "delivered");
    case "cancelled":
      return eq(mailings.state, "cancelled");
    default:
      return t[filter];
  }
}

/** How many letters need an admin now: the dashboard's count. */
export async function mailingsNeedingAttention(services: AppServices, now = new Date()): Promise<number> {
  const { lostAfterDays } = await mailingSettings(services);
  const [row] = await services.db
    .select({ n: sql<number>`count(*)::int` })
    .from(mailings)
    .where(troubles(now, lostAfterDays).attention);
  return Number(row?.n ?? 0);
}

/** A page of letters as the filters choose them, the ones needing attention first, then the newest. */
export async function mailingsAdminPage(services: AppServices, query: MailingsQuery, now = new Date()) {
  const { lostAfterDays } = await mailingSettings(services);
  const t = troubles(now, lostAfterDays);
  const where = and(
    filterOf(query.state, t),
    query.member ? ilike(users.username, `%${query.member.replace(/[\\%_]/g, "\\$&")}%`) : undefined,
  );
  const rows = await services.db
    .select({
      mailing: mailings,
      username: users.username,
      cause: causes.name,
      lost: sql<boolean>`(${t.lost})`,
      unconfirmed: sql<boolean>`(${t.unconfirmed})`,
    })
    .from(mailings)
    .innerJoin(users, eq(users.id, mailings.userId))
    .innerJoin(causes, eq(causes.code, mailings.causeCode))
    .where(where)
    .orderBy(desc(sql`(${t.attention})`), desc(mailings.createdAt), desc(mailings.id))
    .limit(PAGE_SIZE + 1)
    .offset((query.page - 1) * PAGE_SIZE);
  const more = rows.length > PAGE_SIZE;
  return {
    query,
    filters: Object.entries(MAILING_FILTERS).map(([value, label]) => ({ value, label })),
    lostAfterDays,
    rows: rows.slice(0, PAGE_SIZE).map(({ mailing: m, username, cause, lost, unconfirmed }) => ({
      id: m.id,
      userId: m.userId,
      username,
      cause,
      version: m.descriptiveVersion,
      round: roundName(m.round),
      to: `${m.slot}. ${m.toAddress.name}`,
      state: unconfirmed
        ? "Not confirmed by the mail house"
        : lost
          ? `Lost: nothing heard for ${lostAfterDays} days or more`
          : MAILING_STATE_WORDS[m.state],
      attention: Boolean(lost || unconfirmed || m.state === "failed" || m.state === "returned_to_sender"),
      reason: m.reason,
      tracking: m.trackingNumber,
      cost: `${formatMoney(m.costCents, "usd")}${m.refundedAt ? " (refunded)" : ""}`,
      created: formatDateTime(m.createdAt),
      lastNews: m.lastEventAt ? formatDateTime(m.lastEventAt) : null,
    })),
    nextPage: more ? query.page + 1 : null,
    previousPage: query.page > 1 ? query.page - 1 : null,
  };
}
