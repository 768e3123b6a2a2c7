import { sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { rowsOf } from "~/db/client.server";
import {
  causes,
  couponRedemptions,
  errorReports,
  formEntries,
  mailOutbox,
  notarizations,
  payments,
  plans,
  subscriptions,
  users,
  webhookEvents,
} from "~/db/schema";
import { noteCatalogueSize } from "./causes.server";
import { mailingsNeedingAttention } from "./mailings/admin-list.server";
import { waitingVersionCount } from "./nol/version-timelines.server";
import { waitingForReview } from "./respondents.server";

/**
 * The admins' dashboard (/admin): the community's numbers, each with the filtered list behind
 * it, the client errors grouped by message, the mail, webhook and respondent-review backlogs,
 * and sign-ups and revenue per week. A catalogue without causes is warned of (spec §5
 * "Missing causes").
 */

const WEEKS = 12;

const num = (value: unknown) => Number(value ?? 0);

export async function dashboard(services: AppServices) {
  const { db } = services;
  const [
    members,
    byStatus,
    money,
    failed,
    coupons,
    notarizing,
    errors,
    outbox,
    webhooks,
    review,
    causeCount,
    weeks,
    waiting,
    letters,
  ] = await Promise.all([
    db.execute(sql`select count(*) as total,
                            count(*) filter (where ${users.createdAt} >= now() - interval '7 days') as new_this_week
                     from ${users}`),
    db.execute(sql`select coalesce(${users.subscriptionStatus}, 'none') as status, count(*) as n
                     from ${users} group by 1 order by 2 desc`),
    db.execute(sql`select count(*) as active,
                            coalesce(sum(case when ${plans.interval} = 'year' then coalesce(${subscriptions.amountCents}, ${plans.amountCents}, 0) / 12.0
                                              else coalesce(${subscriptions.amountCents}, ${plans.amountCents}, 0) end), 0) as mrr
                     from ${subscriptions} join ${plans} on ${plans.id} = ${subscriptions.planId}
                     where ${subscriptions.status} = 'ACTIVE'`),
    db.execute(sql`select count(*) as n from ${payments}
                     where ${payments.status} = 'failed' and ${payments.createdAt} >= now() - interval '30 days'`),
    db.execute(sql`select count(*) as n from ${couponRedemptions}
                     where ${couponRedemptions.redeemedAt} >= now() - interval '30 days'`),
    db.execute(sql`select count(*) as n from ${notarizations}
                     where coalesce(${notarizations.nzStatus}, '') not in ('completed', 'deleted')`),
    db.execute(sql`select ${errorReports.message} as message, count(*) as n,
                            to_char(max(${errorReports.time}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as last,
                            (array_agg(${errorReports.stack} order by ${errorReports.time} desc))[1] as stack,
                            (array_agg(${errorReports.href} order by ${errorReports.time} desc))[1] as href
                     from ${errorReports} where ${errorReports.time} >= now() - interval '30 days'
                     group by 1 order by 3 desc limit 10`),
    db.execute(sql`select count(*) filter (where ${mailOutbox.status} = 'pending') as pending,
                            count(*) filter (where ${mailOutbox.status} = 'failed') as failed
                     from ${mailOutbox}`),
    // A delivery kept with an error could not be read: it waits for an admin, not for the handler.
    db.execute(sql`select count(*) filter (where ${webhookEvents.error} is null) as backlog,
                            count(*) filter (where ${webhookEvents.error} is not null) as unreadable
                     from ${webhookEvents} where ${webhookEvents.processedAt} is null`),
    // The respondents' review queue (/respondents/review): suggestions and reassessment requests.
    db.execute(sql`select count(*) as n from ${formEntries} where ${waitingForReview}`),
    db.execute(sql`select count(*) as n from ${causes}`),
    db.execute(sql`
        with weeks as (
          select generate_series(date_trunc('week', now()) - ${WEEKS - 1} * interval '1 week', date_trunc('week', now()), interval '1 week') as week
        )
        select to_char(w.week, 'YYYY-MM-DD') as week,
               (select count(*) from ${users} where ${users.createdAt} >= w.week and ${users.createdAt} < w.week + interval '1 week') as signups,
               (select coalesce(sum(${payments.amountCents} - coalesce(${payments.refundedCents}, 0)), 0) from ${payments}
                 where ${payments.status} = 'succeeded' and ${payments.createdAt} >= w.week
                   and ${payments.createdAt} < w.week + interval '1 week') as revenue
        from weeks w order by w.week`),
    // The NoL versions whose last round's window has closed with no next round sent.
    waitingVersionCount(services),
    // The letters mailed from the app that need an admin: refused, returned, lost or not confirmed.
    mailingsNeedingAttention(services),
  ]);
  const [m] = rowsOf(members);
  const [s] = rowsOf(money);
  const [o] = rowsOf(outbox);
  const missingCauses = num(rowsOf(causeCount)[0]?.n) === 0;
  noteCatalogueSize(services.logger, num(rowsOf(causeCount)[0]?.n));
  return {
    members: {
      total: num(m?.total),
      newThisWeek: num(m?.new_this_week),
      byStatus: rowsOf(byStatus).map((r) => ({ status: String(r.status), n: num(r.n) })),
    },
    subscriptions: { active: num(s?.active), mrrCents: Math.round(num(s?.mrr)) },
    failedPayments: num(rowsOf(failed)[0]?.n),
    couponRedemptions: num(rowsOf(coupons)[0]?.n),
    notarizationsInProgress: num(rowsOf(notarizing)[0]?.n),
    errors: rowsOf(errors).map((r) => ({
      message: String(r.message),
      n: num(r.n),
      last: String(r.last),
      stack: r.stack === null ? null : String(r.stack),
      href: r.href === null ? null : String(r.href),
    })),
    outbox: { pending: num(o?.pending), failed: num(o?.failed) },
    webhookBacklog: num(rowsOf(webhooks)[0]?.backlog),
    webhookUnreadable: num(rowsOf(webhooks)[0]?.unreadable),
    respondentReviews: num(rowsOf(review)[0]?.n),
    waitingRounds: waiting,
    lettersNeedingAttention: letters,
    missingCauses,
    weeks: rowsOf(weeks).map((r) => ({ week: String(r.week), signups: num(r.signups), revenueCents: num(r.revenue) })),
  };
}
