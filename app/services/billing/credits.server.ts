import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { creditAccounts, creditEntries, payments, users } from "~/db/schema";
import { creditReasonText, NO_CREDIT_MESSAGE, refundableOnDelete, SPEND_PENDING_MESSAGE } from "~/domain/credits";
import { conflict, DomainError, notFound } from "~/domain/errors";
import { formatDateTime } from "~/lib/format";
import { audit, actorOf } from "../audit.server";
import type { Viewer } from "../session.server";

/**
 * The notarize credit ledger: each change is an entry, written in one transaction with the
 * member's balance, which a constraint keeps at zero or above. A spend is one conditional
 * update of the balance row, so two at once spend at most what is there.
 */

type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Db = Database | Tx;

export type CreditEntry = typeof creditEntries.$inferSelect;

export async function creditBalance(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ balance: creditAccounts.balance })
    .from(creditAccounts)
    .where(eq(creditAccounts.userId, userId));
  return row?.balance ?? 0;
}

export async function creditHistory(db: Db, userId: string, limit = 50): Promise<CreditEntry[]> {
  return db
    .select()
    .from(creditEntries)
    .where(eq(creditEntries.userId, userId))
    .orderBy(desc(creditEntries.createdAt), desc(creditEntries.id))
    .limit(limit);
}

async function addToBalance(tx: Tx, userId: string, delta: number): Promise<void> {
  await tx
    .insert(creditAccounts)
    .values({ userId, balance: delta })
    .onConflictDoUpdate({
      target: creditAccounts.userId,
      set: { balance: sql`${creditAccounts.balance} + ${delta}`, updatedAt: new Date() },
    });
}

/**
 * Credits that come in: a purchase (once per payment, however often its event arrives) or an
 * admin's grant. Returns false when the payment's credit was already given.
 */
export async function addCredits(
  tx: Tx,
  entry: {
    userId: string;
    count: number;
    reason: "purchase" | "grant";
    paymentId?: string | null;
    actorUserId?: string | null;
    note?: string | null;
  },
): Promise<boolean> {
  const [made] = await tx
    .insert(creditEntries)
    .values({
      userId: entry.userId,
      delta: entry.count,
      reason: entry.reason,
      paymentId: entry.paymentId ?? null,
      actorUserId: entry.actorUserId ?? null,
      note: entry.note ?? null,
    })
    .onConflictDoNothing()
    .returning({ id: creditEntries.id });
  if (!made) return false;
  await addToBalance(tx, entry.userId, entry.count);
  return true;
}

/** The credits a paid credit checkout buys, in the payment event's transaction. */
export async function creditPurchase(tx: Tx, payment: { id: string; userId: string | null; kind: string }) {
  if (payment.kind !== "credit" || !payment.userId) return;
  await addCredits(tx, { userId: payment.userId, count: 1, reason: "purchase", paymentId: payment.id });
}

/** A visitor's credits, claimed with their payments when they sign up with the same e-mail. */
export async function claimCredits(db: Database, userId: string, paymentIds: readonly string[]): Promise<void> {
  if (paymentIds.length === 0) return;
  await db.transaction(async (tx) => {
    const bought = await tx
      .select({ id: payments.id, userId: payments.userId, kind: payments.kind })
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.kind, "credit"), eq(payments.status, "succeeded")));
    for (const payment of bought.filter((p) => paymentIds.includes(p.id))) await creditPurchase(tx, payment);
  });
}

/**
 * Spends one credit on notarizing a notice: the spend entry names the notice until the
 * notary's transaction is made (attachSpend). No credit left: a 409 that says so; a spend of
 * the same notice still under way (a second click): a 409 too, and nothing spent.
 */
export async function spendCredit(
  db: Database,
  spend: { userId: string; noticeId: number; actorUserId: string | null },
): Promise<number> {
  return db.transaction(async (tx) => {
    const [spent] = await tx
      .update(creditAccounts)
      .set({ balance: sql`${creditAccounts.balance} - 1`, updatedAt: new Date() })
      .where(and(eq(creditAccounts.userId, spend.userId), sql`${creditAccounts.balance} >= 1`))
      .returning({ balance: creditAccounts.balance });
    if (!spent) throw new DomainError("conflict", NO_CREDIT_MESSAGE, { extra: { needsCredit: true } });
    const [entry] = await tx
      .insert(creditEntries)
      .values({
        userId: spend.userId,
        delta: -1,
        reason: "spend",
        noticeId: spend.noticeId,
        actorUserId: spend.actorUserId,
      })
      .onConflictDoNothing()
      .returning({ id: creditEntries.id });
    // Thrown inside the transaction: the balance's update goes with it.
    if (!entry) throw conflict(SPEND_PENDING_MESSAGE);
    return entry.id;
  });
}

/**
 * The notary's transaction that a spend paid for. Two clicks that reach the notary at once get
 * its one transaction (the same idempotency key): the later spend is given back.
 */
export async function attachSpend(db: Database, spendId: number, nzId: string): Promise<void> {
  const [paid] = await db
    .select({ id: creditEntries.id })
    .from(creditEntries)
    .where(
      and(
        eq(creditEntries.nzId, nzId),
        eq(creditEntries.reason, "spend"),
        eq(creditEntries.refunded, false),
        ne(creditEntries.id, spendId),
      ),
    )
    .limit(1);
  if (paid) await refundSpend(db, spendId, "This notarization was paid for already");
  else await db.update(creditEntries).set({ nzId }).where(eq(creditEntries.id, spendId));
}

/** Gives a spend back, once: its entry is marked and a refund entry adds the credit again. */
export async function refundSpend(db: Database, spendId: number, note: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [spend] = await tx
      .update(creditEntries)
      .set({ refunded: true })
      .where(and(eq(creditEntries.id, spendId), eq(creditEntries.reason, "spend"), eq(creditEntries.refunded, false)))
      .returning();
    if (!spend) return false;
    await tx.insert(creditEntries).values({
      userId: spend.userId,
      delta: 1,
      reason: "refund",
      noticeId: spend.noticeId,
      nzId: spend.nzId,
      note,
    });
    await addToBalance(tx, spend.userId, 1);
    return true;
  });
}

/** A notarization deleted by its member: its credit comes back while the notary had not started. */
export async function refundOnDelete(db: Database, nzId: string, status: string | null): Promise<boolean> {
  if (!refundableOnDelete(status)) return false;
  const [spend] = await db
    .select({ id: creditEntries.id })
    .from(creditEntries)
    .where(and(eq(creditEntries.nzId, nzId), eq(creditEntries.reason, "spend"), eq(creditEntries.refunded, false)))
    .limit(1);
  return spend ? refundSpend(db, spend.id, "Deleted before the notary started") : false;
}

/** An admin's grant from the member's page, audited. */
export async function grantCredits(
  services: AppServices,
  admin: Viewer,
  userId: string,
  grant: { count: number; note: string },
): Promise<number> {
  const { db } = services;
  const [member] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!member) throw notFound();
  await db.transaction(async (tx) => {
    await addCredits(tx, {
      userId,
      count: grant.count,
      reason: "grant",
      actorUserId: admin.user.id,
      note: grant.note,
    });
    await audit(tx, actorOf(admin), "credits.grant", "user", userId, { count: grant.count, note: grant.note });
  });
  return creditBalance(db, userId);
}

export type CreditLine = { id: number; at: string; what: string; delta: number; note: string | null };

/** The profile's view of the member's credits: the balance and its history, newest first. */
export async function creditSummary(db: Database, userId: string): Promise<{ balance: number; history: CreditLine[] }> {
  const entries = await creditHistory(db, userId);
  return {
    balance: await creditBalance(db, userId),
    history: entries.map((entry) => ({
      id: entry.id,
      at: formatDateTime(entry.createdAt),
      what: creditReasonText(entry.reason, entry.refunded),
      delta: entry.delta,
      note: entry.note,
    })),
  };
}
