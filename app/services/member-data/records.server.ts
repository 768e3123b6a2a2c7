import { asc, eq, getTableColumns, inArray, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import {
  billingCustomers,
  checkouts,
  claims,
  couponRedemptions,
  creditAccounts,
  creditEntries,
  errorReports,
  formEntries,
  mailingOrders,
  mailings,
  mailOutbox,
  memberArchives,
  newsletterSubscriptions,
  nolEntries,
  nolReminders,
  nolVersionFeatures,
  notarizations,
  noticeCfs,
  notices,
  payments,
  pendingSubmissions,
  plans,
  reminderOptOuts,
  respondents,
  subscriptions,
  supportRequests,
  users,
  roundSignatures,
  serviceRecords,
} from "~/db/schema";
import { communityFor } from "~/domain/community";
import type { ArchiveFile } from "~/domain/member-archive";
import { paymentLine } from "../billing/account.server";
import { receiptText } from "../billing/notices.server";
import { auditTrail, profile, secondFactors, sessionRows } from "./account-records.server";

/**
 * Every record the community holds about one member, as the JSON files of their archive. Each
 * query names the member (by id, or by their e-mail address where a row has no member), so
 * nothing of another member comes with it; secrets stay out (password hash, factor keys and
 * sealed secrets, session ids, link codes, hashes, the signer's access link).
 */

export type ArchiveRecord = ArchiveFile & { content: () => Promise<string> };

type Member = { id: string; email: string };

const asJson = (rows: unknown) => JSON.stringify(rows, null, 2) + "\n";

async function billing(db: Database, member: Member) {
  const customers = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, member.id));
  const { clientSecret: _secret, ...checkoutColumns } = getTableColumns(checkouts);
  return {
    customers,
    checkouts: await db
      .select(checkoutColumns)
      .from(checkouts)
      .where(eq(checkouts.userId, member.id))
      .orderBy(asc(checkouts.createdAt)),
    couponRedemptions: await db.select().from(couponRedemptions).where(eq(couponRedemptions.userId, member.id)),
  };
}

async function paymentRows(db: Database, memberId: string) {
  return db
    .select({ payment: payments, plan: plans })
    .from(payments)
    .leftJoin(plans, eq(plans.id, payments.planId))
    .where(eq(payments.userId, memberId))
    .orderBy(asc(payments.createdAt));
}

async function credits(db: Database, memberId: string) {
  const [account] = await db.select().from(creditAccounts).where(eq(creditAccounts.userId, memberId));
  const { actorUserId, ...columns } = getTableColumns(creditEntries);
  const entries = await db
    .select({ ...columns, byYou: sql<boolean>`${actorUserId} = ${memberId}` })
    .from(creditEntries)
    .where(eq(creditEntries.userId, memberId))
    .orderBy(asc(creditEntries.createdAt));
  return { balance: account?.balance ?? 0, entries };
}

/** The member's NoL versions: every entry with its answers, the respondents named in it, the version's features. */
async function nolVersions(db: Database, memberId: string) {
  const { editHash: _edit, viewHash: _view, ...columns } = getTableColumns(nolEntries);
  const entries = await db
    .select(columns)
    .from(nolEntries)
    .where(eq(nolEntries.userId, memberId))
    .orderBy(asc(nolEntries.causeCode), asc(nolEntries.descriptiveVersion), asc(nolEntries.createdAt));
  const named = entries.length
    ? await db
        .select()
        .from(respondents)
        .where(
          inArray(
            respondents.entryId,
            entries.map((e) => e.id),
          ),
        )
        .orderBy(asc(respondents.entryId), asc(respondents.slot))
    : [];
  return {
    entries: entries.map((entry) => ({ ...entry, respondents: named.filter((r) => r.entryId === entry.id) })),
    features: await db.select().from(nolVersionFeatures).where(eq(nolVersionFeatures.userId, memberId)),
    pendingSubmissions: await db.select().from(pendingSubmissions).where(eq(pendingSubmissions.userId, memberId)),
  };
}

/** The letters mailed from the app (their return receipts are files of their own in the mail house's keeping), and their orders. */
async function mailingRows(db: Database, userId: string) {
  const { returnReceiptPdf: _receipt, idempotencyKey: _key, ...letterColumns } = getTableColumns(mailings);
  return {
    letters: await db
      .select(letterColumns)
      .from(mailings)
      .where(eq(mailings.userId, userId))
      .orderBy(asc(mailings.createdAt)),
    orders: await db
      .select()
      .from(mailingOrders)
      .where(eq(mailingOrders.userId, userId))
      .orderBy(asc(mailingOrders.createdAt)),
    // What was recorded by hand of each respondent's service: envelopes mailed, delivered, returned, left out.
    service: await db
      .select()
      .from(serviceRecords)
      .where(eq(serviceRecords.userId, userId))
      .orderBy(asc(serviceRecords.id)),
    // Each signature of a round's notice, with the record of the act (the session's reference, never its id).
    signatures: await db
      .select()
      .from(roundSignatures)
      .where(eq(roundSignatures.userId, userId))
      .orderBy(asc(roundSignatures.createdAt)),
  };
}

/** The member's notices with their claim and form entry, and the notarizations of each. */
async function noticeRows(db: Database, memberId: string) {
  const { accessUrl: _link, ...notarizationColumns } = getTableColumns(notarizations);
  const rows = await db
    .select({ claim: claims, notice: notices, entry: noticeCfs })
    .from(notices)
    .innerJoin(claims, eq(claims.id, notices.claimId))
    .leftJoin(noticeCfs, eq(noticeCfs.noticeId, notices.id))
    .where(eq(claims.claimantId, memberId))
    .orderBy(asc(claims.causeCode), asc(claims.nolVersion), asc(notices.roundCnt));
  const made = rows.length
    ? await db
        .select(notarizationColumns)
        .from(notarizations)
        .where(
          inArray(
            notarizations.noticeId,
            rows.map((r) => r.notice.id),
          ),
        )
    : [];
  return {
    notices: rows.map((r) => ({ ...r.notice, claim: r.claim, formEntry: r.entry })),
    notarizations: made,
  };
}

async function formEntryRows(db: Database, memberId: string) {
  const { editHash: _edit, viewHash: _view, reviewedBy: _admin, ...columns } = getTableColumns(formEntries);
  return {
    formEntries: await db
      .select(columns)
      .from(formEntries)
      .where(eq(formEntries.userId, memberId))
      .orderBy(asc(formEntries.createdAt)),
    supportRequests: await db.select().from(supportRequests).where(eq(supportRequests.userId, memberId)),
  };
}

async function reminders(db: Database, member: Member) {
  return {
    sent: await db
      .select()
      .from(nolReminders)
      .where(eq(nolReminders.userId, member.id))
      .orderBy(asc(nolReminders.sentAt)),
    turnedOff: await db.select().from(reminderOptOuts).where(eq(reminderOptOuts.userId, member.id)),
    newsletter: await db
      .select({
        status: newsletterSubscriptions.status,
        confirmedAt: newsletterSubscriptions.confirmedAt,
        unsubscribedAt: newsletterSubscriptions.unsubscribedAt,
        createdAt: newsletterSubscriptions.createdAt,
      })
      .from(newsletterSubscriptions)
      .where(sql`lower(${newsletterSubscriptions.email}) = lower(${member.email})`),
  };
}

/** What the site wrote to the member and noted of them: e-mails (not their bodies, which held links), errors, archives. */
async function messages(db: Database, member: Member) {
  return {
    emails: await db
      .select({
        subject: mailOutbox.subject,
        kind: mailOutbox.template,
        status: mailOutbox.status,
        createdAt: mailOutbox.createdAt,
        sentAt: mailOutbox.sentAt,
      })
      .from(mailOutbox)
      .where(sql`lower(${mailOutbox.to}) = lower(${member.email})`)
      .orderBy(asc(mailOutbox.createdAt)),
    errorReports: await db
      .select({
        time: errorReports.time,
        href: errorReports.href,
        message: errorReports.message,
        userAgent: errorReports.userAgent,
        ip: errorReports.ip,
      })
      .from(errorReports)
      .where(eq(errorReports.userId, member.id)),
    dataArchives: await db
      .select({
        status: memberArchives.status,
        createdAt: memberArchives.createdAt,
        finishedAt: memberArchives.finishedAt,
        expiresAt: memberArchives.expiresAt,
        downloadedAt: memberArchives.downloadedAt,
      })
      .from(memberArchives)
      .where(eq(memberArchives.userId, member.id)),
  };
}

// The admin who granted a complimentary membership is named in the audit trail by role.
const { grantedBy: _admin, ...subscriptionColumns } = getTableColumns(subscriptions);

const record = (name: string, about: string, read: () => Promise<unknown>): ArchiveRecord => ({
  name: `records/${name}.json`,
  about,
  content: async () => asJson(await read()),
});

/** The archive's JSON files and receipts, each read when it is written. */
export async function memberRecords(services: AppServices, member: Member): Promise<ArchiveRecord[]> {
  const { db } = services;
  const paid = await paymentRows(db, member.id);
  const community = communityFor(services.config.community).name;
  const [person] = await db
    .select({ name: users.name, username: users.username })
    .from(users)
    .where(eq(users.id, member.id));
  const receipts: ArchiveRecord[] = paid
    .filter(({ payment, plan }) => paymentLine(payment, plan?.title ?? null).hasReceipt)
    .map(({ payment, plan }) => ({
      name: `receipts/receipt-${payment.createdAt.toISOString().slice(0, 10)}-${payment.id}.txt`,
      about: "the receipt of a payment, as it was e-mailed to you",
      content: async () => {
        const name = person?.name ?? person?.username ?? null;
        return receiptText({ community, name, payment, plan, baseUrl: services.config.baseUrl }).text + "\n";
      },
    }));
  return [
    record("profile", "your account: username, e-mail address, name, country, roles, dates", () =>
      profile(db, member.id),
    ),
    record("sessions", "each time you signed in: device, address, when, until when", () => sessionRows(db, member.id)),
    record(
      "second-factors",
      "your passkeys and authenticator app (kind, name, dates), recovery codes used, remembered browsers",
      () => secondFactors(db, member.id),
    ),
    record("subscriptions", "your memberships: plan, status, price, periods, cancellation", () =>
      db
        .select(subscriptionColumns)
        .from(subscriptions)
        .where(eq(subscriptions.userId, member.id))
        .orderBy(asc(subscriptions.createdAt)),
    ),
    record(
      "payments",
      "your payments: donations, credits, membership payments, with amounts, card and status",
      async () => paid.map(({ payment, plan }) => ({ ...payment, plan: plan?.title ?? null })),
    ),
    record("billing", "your card on file at the payments provider, your checkouts and the coupons you used", () =>
      billing(db, member),
    ),
    record("credits", "your notarize credits: the balance and each purchase, grant, spend and refund", () =>
      credits(db, member.id),
    ),
    record(
      "nol-versions",
      "your NoL versions: every entry with all its answers and respondents, and each version's features",
      () => nolVersions(db, member.id),
    ),
    record("notices", "your notices by cause, version and round, and their notarizations", () =>
      noticeRows(db, member.id),
    ),
    record(
      "mailings",
      "the letters mailed for you from the app: addresses, tracking, what became of each, the orders that paid for them; what you recorded of each respondent's service; your signatures of the notices",
      () => mailingRows(db, member.id),
    ),
    record("form-entries", "the other forms you sent (support, respondent search and suggestions, corrections)", () =>
      formEntryRows(db, member.id),
    ),
    record("reminders", "the NoL reminders we sent you, those you turned off, and your newsletter subscription", () =>
      reminders(db, member),
    ),
    record(
      "messages",
      "the e-mails we sent you (subject and date), error reports from your browser, your data archives",
      () => messages(db, member),
    ),
    record(
      "audit-trail",
      "what you did, what admins did to or for your account and the changes to many members that reached you, with when",
      () => auditTrail(db, member.id),
    ),
    ...receipts,
  ];
}
