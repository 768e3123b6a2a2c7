import { and, asc, eq, gt, isNotNull, isNull, lte, notInArray } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { billingCustomers, rememberedDevices, subscriptions, users } from "~/db/schema";
import { conflict, forbidden, invalid, notFound } from "~/domain/errors";
import { formatDate } from "~/lib/format";
import { verifyPassword } from "~/lib/password.server";
import { communityName } from "../accounts.server";
import { actorOf, audit, type AuditActor } from "../audit.server";
import { factorFromForm } from "../factors/step-up.server";
import { hasFactor } from "../factors/records.server";
import { revokeUserSessions, type Viewer } from "../session.server";

/**
 * "Delete my account" (decision 051): the member confirms with their password, or their second
 * factor where they have one; the membership is cancelled and the customer (with the card)
 * removed at the payments provider first; every session ends; then the account waits
 * ACCOUNT_DELETION_GRACE_DAYS, in which logging in offers to undo, before the erasure job.
 */

const DAY_MS = 86_400_000;
const ENDED = ["CANCELED", "INCOMPLETE_EXPIRED"] as const;

export const WRONG_PASSWORD = "That is not your password";
/** A community without an admin could not be run: no one could make another. */
export const ONLY_ADMIN = "You are the only admin: make another member an admin first.";
export const WRONG_FACTOR = "Confirm with your passkey or a code from your authenticator app or recovery codes";

export const deleteAccountFormSchema = z.object({
  intent: z.literal("delete-account"),
  password: z.string().max(1000).optional(),
  code: z.string().max(100).optional(),
  passkey: z.string().max(20_000).optional(),
});

export type PendingDeletion = { requestedAt: Date; dueAt: Date };
/** A deletion as a request left it: `marked` when this request made it, not an earlier one. */
export type MarkedDeletion = PendingDeletion & { marked: boolean };

/** The member's deletion, where one is pending and not yet erased. */
export function pendingDeletionOf(member: typeof users.$inferSelect): PendingDeletion | null {
  if (!member.deletionRequestedAt || !member.deletionDueAt || member.erasedAt) return null;
  return { requestedAt: member.deletionRequestedAt, dueAt: member.deletionDueAt };
}

/** The account's pending deletion, read for its login page. */
export async function pendingDeletionFor(services: AppServices, userId: string): Promise<PendingDeletion | null> {
  const [member] = await services.db.select().from(users).where(eq(users.id, userId));
  return member ? pendingDeletionOf(member) : null;
}

/** The admins who keep the community running: not deleted, not erased, not disabled. */
const standingAdmin = and(
  eq(users.admin, true),
  isNull(users.deletionRequestedAt),
  isNull(users.erasedAt),
  isNull(users.disabledAt),
);

/** Whether the account is the community's only admin, who cannot delete it (ONLY_ADMIN). */
export async function isOnlyAdmin(services: AppServices, userId: string): Promise<boolean> {
  const admins = await services.db.select({ id: users.id }).from(users).where(standingAdmin).limit(2);
  return admins.length === 1 && admins[0]!.id === userId;
}

/** The password, or the second factor where the member has one: throws a field error when it fails. */
async function confirmIdentity(services: AppServices, userId: string, form: FormData): Promise<void> {
  const input = deleteAccountFormSchema.parse(Object.fromEntries(form));
  if (await hasFactor(services.db, userId)) {
    const passed = await factorFromForm(services, userId, form, { passkey: "passkey", code: "code" });
    if (!passed) throw invalid(WRONG_FACTOR, { code: [WRONG_FACTOR] });
    return;
  }
  const [row] = await services.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  if (!row?.hash || !input.password || !(await verifyPassword(input.password, row.hash))) {
    throw invalid(WRONG_PASSWORD, { password: [WRONG_PASSWORD] });
  }
}

/**
 * Ends the member's memberships and removes their customer at the payments provider. Called
 * only by the request that marked the account (the mark is the lock): provider calls happen
 * once, however often the form is sent.
 */
export async function closeBilling(services: AppServices, userId: string): Promise<void> {
  const { db, providers } = services;
  const provider = providers.payments;
  const live = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), notInArray(subscriptions.status, [...ENDED])));
  for (const subscription of live) {
    if (subscription.provider === provider.name && subscription.providerSubscriptionId) {
      await provider.cancelSubscription(subscription.providerSubscriptionId, { atPeriodEnd: false });
    }
    const now = new Date();
    await db
      .update(subscriptions)
      .set({ status: "CANCELED", canceledAt: now, endedAt: now, cancelAtPeriodEnd: false, updatedAt: now })
      .where(eq(subscriptions.id, subscription.id));
  }
  const customers = await db.select().from(billingCustomers).where(eq(billingCustomers.userId, userId));
  for (const customer of customers) {
    // A customer of the other provider (the community changed providers) cannot be reached from here.
    if (customer.provider === provider.name) await provider.deleteCustomer(customer.providerCustomerId);
    await db.delete(billingCustomers).where(eq(billingCustomers.id, customer.id));
  }
}

/**
 * Marks the account, closes its billing and ends its sessions; answers when it is erased.
 * `dueAt` null: the configured grace period. A second request finds the account marked and
 * changes nothing. The community's last admin (not deleted, not disabled) is refused.
 */
export async function markForDeletion(
  services: AppServices,
  userId: string,
  actor: AuditActor,
  dueAt: Date | null = null,
): Promise<MarkedDeletion> {
  const { db, config } = services;
  const now = new Date();
  const due = dueAt ?? new Date(now.getTime() + config.accountDeletionGraceDays * DAY_MS);
  const marked = await db.transaction(async (tx) => {
    // The admins' rows locked, two admins deleting at once are counted one after the other.
    const admins = await tx.select({ id: users.id }).from(users).where(standingAdmin).for("update");
    if (admins.length === 1 && admins[0]!.id === userId) throw conflict(ONLY_ADMIN);
    const [row] = await tx
      .update(users)
      .set({ deletionRequestedAt: now, deletionDueAt: due, updatedAt: now })
      .where(and(eq(users.id, userId), isNull(users.deletionRequestedAt), isNull(users.erasedAt)))
      .returning();
    return row;
  });
  if (!marked) {
    const [member] = await db.select().from(users).where(eq(users.id, userId));
    const pending = member ? pendingDeletionOf(member) : null;
    if (!pending) throw notFound("No such account");
    return { ...pending, marked: false };
  }
  try {
    await closeBilling(services, userId);
  } catch (error) {
    // Nothing is marked that the provider did not do: the member may try again.
    await db.update(users).set({ deletionRequestedAt: null, deletionDueAt: null }).where(eq(users.id, userId));
    throw error;
  }
  await revokeUserSessions(db, userId);
  services.viewers.forget(userId);
  await db
    .update(rememberedDevices)
    .set({ revokedAt: now })
    .where(and(eq(rememberedDevices.userId, userId), isNull(rememberedDevices.revokedAt)));
  await audit(db, actor, "account.delete-requested", "user", userId, { dueAt: due.toISOString() });
  return { requestedAt: now, dueAt: due, marked: true };
}

/** The member deletes their own account from /profile. */
export async function deleteOwnAccount(
  services: AppServices,
  viewer: Viewer,
  form: FormData,
): Promise<PendingDeletion> {
  // An admin acting for a member is not the member: "Erase now" is the admins' way.
  if (viewer.agent) throw forbidden("Only the member can delete their own account.");
  const member = viewer.member;
  // Said before the password is checked: no password makes the only admin's deletion possible.
  if (await isOnlyAdmin(services, member.id)) throw conflict(ONLY_ADMIN);
  await confirmIdentity(services, member.id, form);
  const pending = await markForDeletion(services, member.id, actorOf(viewer));
  // A form sent twice at once: the request that marked the account tells the member.
  if (!pending.marked) return pending;
  await services.providers.mail.send({
    to: member.email,
    template: "account-deletion",
    subject: "Your account is deleted",
    text: `Hello ${member.username},\n\nYour account at ${communityName(services)} is deleted and your membership cancelled. Your data is erased on ${formatDate(pending.dueAt)}.\n\nChanged your mind? Log in before then and choose to keep your account.`,
  });
  return pending;
}

/** Logging in during the grace period: the member keeps their account (the membership stays cancelled). */
export async function undoDeletion(services: AppServices, userId: string, ip: string | null): Promise<boolean> {
  const [undone] = await services.db
    .update(users)
    .set({ deletionRequestedAt: null, deletionDueAt: null, updatedAt: new Date() })
    .where(and(eq(users.id, userId), isNull(users.erasedAt), gt(users.deletionDueAt, new Date())))
    .returning({ id: users.id });
  if (!undone) return false;
  await audit(services.db, { actorUserId: userId, agentUserId: null, ip }, "account.delete-undone", "user", userId);
  return true;
}

/** Accounts deleted and waiting for their erasure, the soonest first (the admins' list). */
export async function pendingDeletions(services: AppServices, limit = 100) {
  const rows = await services.db
    .select({ id: users.id, username: users.username, dueAt: users.deletionDueAt })
    .from(users)
    .where(and(isNotNull(users.deletionDueAt), isNull(users.erasedAt)))
    .orderBy(asc(users.deletionDueAt))
    .limit(limit);
  return rows.map((r) => ({ id: r.id, username: r.username, dueOn: formatDate(r.dueAt!) }));
}

/** Where an account's deletion stands, for its admins' page. */
export async function erasureState(services: AppServices, userId: string) {
  const [member] = await services.db
    .select({ dueAt: users.deletionDueAt, erasedAt: users.erasedAt })
    .from(users)
    .where(eq(users.id, userId));
  return { erased: !!member?.erasedAt, dueOn: member?.dueAt ? formatDate(member.dueAt) : null };
}

/** Accounts whose grace period has ended (the sweep's work). */
export async function dueForErasure(services: AppServices, now: Date): Promise<string[]> {
  const rows = await services.db
    .select({ id: users.id })
    .from(users)
    .where(and(lte(users.deletionDueAt, now), isNull(users.erasedAt)))
    .orderBy(asc(users.deletionDueAt))
    .limit(100);
  return rows.map((r) => r.id);
}
