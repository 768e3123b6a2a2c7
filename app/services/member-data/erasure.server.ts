import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import {
  billingCustomers,
  checkouts,
  claims,
  couponRedemptions,
  creditEntries,
  errorReports,
  formEntries,
  mailings,
  mailingEvents,
  mailOutbox,
  memberArchives,
  memberImportRows,
  newsletterSubscriptions,
  nolEditors,
  nolEntries,
  nolReminders,
  nolVersionFeatures,
  oneTimeTokens,
  payments,
  pendingSubmissions,
  rateLimits,
  recoveryCodes,
  rememberedDevices,
  reminderOptOuts,
  sessions,
  subscriptions,
  supportRequests,
  userFactors,
  users,
  webauthnChallenges,
  webhookEvents,
} from "~/db/schema";
import { conflict, forbidden, notFound } from "~/domain/errors";
import { communityName } from "../accounts.server";
import { actorOf, audit, type AuditActor } from "../audit.server";
import { sweepJob } from "../queue.server";
import type { Viewer } from "../session.server";
import { sweepArchives } from "./archive.server";
import { dueForErasure, markForDeletion } from "./deletion.server";
import { deleteSandboxDocuments, rewriteBlobs, sandboxDocumentsOf } from "./erasure-documents.server";
import { LOOSE_COLUMNS, memberWords, rewriteColumn, wordsPattern, wordsRegExp } from "./erasure-text.server";

/**
 * The erasure (decision 051): after the grace period, or at once when an admin erases on the
 * member's request. What must stay (payments and receipts, memberships, credits: the community's
 * accounting) stays, tied to the account's row emptied of everything that says who it was;
 * everything else about the member goes. An erasure cannot be undone.
 */

export type ErasureOutcome = "erased" | "already-erased" | "waiting-for-mail";

export const erasureSweepJob = sweepJob({
  name: "account-erasure-sweep",
  schedule: "23 * * * *",
  async run(services) {
    for (const userId of await dueForErasure(services, new Date())) {
      await eraseMember(services, userId, { actorUserId: null, agentUserId: null }, "grace-ended");
    }
  },
});

/** The opaque name an erased account keeps, for its payments' sake. */
const opaqueName = () => `erased-${randomBytes(9).toString("hex")}`;

/** Rows that are the member's alone, and go with them. */
async function deleteOwnRecords(tx: Database, userId: string, email: string) {
  const lowerEmail = email.toLowerCase();
  const theirMailings = tx.select({ id: mailings.id }).from(mailings).where(eq(mailings.userId, userId));
  await tx.delete(mailingEvents).where(inArray(mailingEvents.mailingId, theirMailings));
  // Their NoL versions go with respondents, mailings; claims with notices and notarizations.
  await tx.delete(nolEntries).where(eq(nolEntries.userId, userId));
  await tx.delete(claims).where(eq(claims.claimantId, userId));
  for (const table of [sessions, userFactors, recoveryCodes, rememberedDevices, webauthnChallenges, oneTimeTokens]) {
    await tx.delete(table).where(eq(table.userId, userId));
  }
  for (const table of [nolVersionFeatures, nolReminders, reminderOptOuts, pendingSubmissions, memberArchives]) {
    await tx.delete(table).where(eq(table.userId, userId));
  }
  await tx.delete(nolEditors).where(or(eq(nolEditors.ownerUserId, userId), eq(nolEditors.editorUserId, userId)));
  await tx.delete(formEntries).where(eq(formEntries.userId, userId));
  await tx.delete(errorReports).where(eq(errorReports.userId, userId));
  await tx.delete(billingCustomers).where(eq(billingCustomers.userId, userId));
  await tx
    .delete(supportRequests)
    .where(or(eq(supportRequests.userId, userId), sql`lower(${supportRequests.email}) = ${lowerEmail}`));
  await tx.delete(newsletterSubscriptions).where(sql`lower(${newsletterSubscriptions.email}) = ${lowerEmail}`);
  await tx.delete(mailOutbox).where(sql`lower(${mailOutbox.to}) = ${lowerEmail}`);
  await tx.delete(rateLimits).where(sql`strpos(lower(${rateLimits.key}), ${userId}) > 0`);
}

/**
 * The payments provider's events about the member's customer are its copies of their data
 * (name, e-mail, billing address): each keeps its id, so that a delivery sent again still
 * changes nothing, and loses its content.
 */
async function forgetProviderCopies(tx: Database, userId: string, email: string) {
  const refs = await tx
    .selectDistinct({ ref: subscriptions.providerCustomerId })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .union(
      tx.selectDistinct({ ref: checkouts.providerCustomerId }).from(checkouts).where(eq(checkouts.userId, userId)),
    );
  const words = [email, ...refs.map((r) => r.ref).filter((r): r is string => !!r)];
  await tx
    .update(webhookEvents)
    .set({ payload: { erased: true } })
    .where(sql`${webhookEvents.payload}::text ~* ${wordsPattern(words)}`);
}

/** Rows the community's accounting keeps: the member in them becomes the opaque name. */
async function anonymiseKeptRecords(tx: Database, userId: string, email: string, opaque: string) {
  const byEmail = <T extends { email: unknown }>(t: T) => sql`lower(${t.email}) = ${email.toLowerCase()}`;
  await tx
    .update(payments)
    .set({ email: opaque })
    .where(or(eq(payments.userId, userId), byEmail(payments)));
  await tx
    .update(checkouts)
    .set({ email: opaque, clientSecret: null, returnPath: null })
    .where(or(eq(checkouts.userId, userId), byEmail(checkouts)));
  await tx
    .update(couponRedemptions)
    .set({ email: opaque })
    .where(or(eq(couponRedemptions.userId, userId), byEmail(couponRedemptions)));
  await tx
    .update(memberImportRows)
    .set({ email: opaque, member: null })
    .where(or(eq(memberImportRows.userId, userId), byEmail(memberImportRows)));
  await tx.update(creditEntries).set({ note: null }).where(eq(creditEntries.userId, userId));
  await tx
    .update(users)
    .set({
      username: opaque,
      email: opaque,
      emailVerifiedAt: null,
      passwordHash: null,
      name: null,
      countryCode: null,
      admin: false,
      nolCreator: false,
      nolTester: false,
      setupStep: null,
      labels: [],
      disabledAt: new Date(),
      deletionDueAt: null,
      erasedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
}

/**
 * Erases the account (the sweep's, and an admin's on request). Put off while a mail to the member is still being sent (the outbox row is
 * theirs to go, and the mail must reach them first).
 */
export async function eraseMember(
  services: AppServices,
  userId: string,
  actor: AuditActor,
  reason: "grace-ended" | "on-request",
): Promise<ErasureOutcome> {
  const outcome = await services.db.transaction(async (tx) => {
    const [member] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!member) throw notFound("No such account");
    if (member.erasedAt) return "already-erased" as const;
    const [sending] = await tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(sql`lower(${mailOutbox.to}) = ${member.email.toLowerCase()}`, eq(mailOutbox.status, "pending")))
      .limit(1);
    if (sending) return "waiting-for-mail" as const;
    const words = await memberWords(tx, member);
    // Read while the member's mailings and notarizations, which point to them, are there.
    const documents = await sandboxDocumentsOf(tx, userId);
    await forgetProviderCopies(tx, userId, member.email);
    await deleteOwnRecords(tx, userId, member.email);
    await deleteSandboxDocuments(tx, documents);
    await anonymiseKeptRecords(tx, userId, member.email, opaqueName());
    // The audit log refuses changes but this one (its trigger, migration 0019): the member's
    // words out of the entries' data, and their network address out of what they did.
    await tx.execute(sql`select set_config('memberhall.erasure', 'on', true)`);
    for (const column of LOOSE_COLUMNS) await rewriteColumn(tx, column, words.all);
    await rewriteBlobs(tx, wordsRegExp(words.own));
    await tx.execute(
      sql`update audit_log set ip = null where ip is not null and (actor_user_id = ${userId} or agent_user_id = ${userId})`,
    );
    await tx.execute(sql`select set_config('memberhall.erasure', 'off', true)`);
    // That an erasure happened, never whom: the account's id is all that is left of them.
    await audit(tx, { ...actor, ip: null }, "account.erased", "user", userId, { reason });
    return "erased" as const;
  });
  // The files of their archives (one being made too) have no row now: this server's go at once,
  // another server's with its hourly sweep.
  if (outcome === "erased") {
    await sweepArchives(services).catch((error: unknown) => {
      services.logger.warn({ err: error }, "the archives' files were not swept after an erasure");
    });
  }
  services.viewers.forget(userId);
  return outcome;
}

/**
 * An admin erases a member at their request: the same path as the member's own deletion
 * (billing closed, sessions ended) with no grace period, the member told, and audited.
 */
export async function eraseOnRequest(services: AppServices, admin: Viewer, memberId: string): Promise<ErasureOutcome> {
  if (!admin.user.admin) throw forbidden("Only an admin can erase a member.");
  if (memberId === admin.user.id) throw forbidden("An admin cannot erase their own account here.");
  const [member] = await services.db
    .select()
    .from(users)
    .where(and(eq(users.id, memberId), isNull(users.erasedAt)));
  if (!member) throw conflict("This account is erased already.");
  await markForDeletion(services, memberId, actorOf(admin), new Date());
  await services.providers.mail.send({
    to: member.email,
    template: "account-erased",
    subject: "Your account is erased",
    text: `Hello ${member.username},\n\nAs you asked, your account at ${communityName(services)} is erased: your membership is cancelled and your data removed, but for the payments the community's accounting must keep, which no longer name you.`,
  });
  await audit(services.db, actorOf(admin), "account.erase-requested", "user", memberId);
  // With a mail still being sent, the hourly sweep erases the account once it has gone.
  return eraseMember(services, memberId, actorOf(admin), "on-request");
}
