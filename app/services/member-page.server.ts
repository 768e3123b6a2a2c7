import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { complimentaryOf } from "./billing/complimentary.server";
import { creditSummary } from "./billing/credits.server";
import { alias } from "drizzle-orm/pg-core";
import type { AppServices } from "~/context";
import {
  auditLog,
  causes,
  claims,
  couponRedemptions,
  coupons,
  nolEntries,
  notarizations,
  notices,
  sessions,
  supportRequests,
  users,
} from "~/db/schema";
import { notFound } from "~/domain/errors";
import { entryName } from "~/domain/nol/labels";
import { deviceOf } from "~/domain/profile";
import { memberTimelines } from "./nol/version-timelines.server";
import { factorOverview } from "./factors/records.server";
import { audit, actorOf } from "./audit.server";
import { noticeNotarization } from "./documents/notices.server";
import { memberBilling, memberDetail } from "./members.server";
import { featuresOf } from "./nol/features.server";
import { sessionCode } from "./profile.server";
import { labelOfStoredRound } from "./round-labels.server";
import type { Viewer } from "./session.server";

/**
 * The admins' page of one member (/members/{id}): the account and its flags, the membership and
 * payments, coupons, NoL entries with their notices and notarizations, sessions, support
 * requests and the audit trail of what was done to and by the account. Opening it is audited:
 * it is a read of a member's personal data.
 */

const SHOWN = 20;
const iso = (date: Date | null) => date?.toISOString() ?? null;

export async function memberPage(services: AppServices, admin: Viewer, id: string) {
  const { db } = services;
  const detail = await memberDetail(db, id);
  const [member] = await db
    .select({
      nolCreator: users.nolCreator,
      nolTester: users.nolTester,
      admin: users.admin,
      lastSeenAt: users.lastSeenAt,
    })
    .from(users)
    .where(eq(users.id, id));
  if (!member) throw notFound("No such member");
  const actor = alias(users, "actor");
  const agent = alias(users, "agent");
  const [billing, couponRows, entryRows, noticeRows, sessionRows, supportRows, auditRows] = await Promise.all([
    memberBilling(services, id),
    db
      .select({
        id: couponRedemptions.id,
        coupon: coupons.name,
        code: couponRedemptions.couponId,
        listAmountCents: couponRedemptions.listAmountCents,
        amountCents: couponRedemptions.amountCents,
        currency: couponRedemptions.currency,
        redeemedAt: couponRedemptions.redeemedAt,
      })
      .from(couponRedemptions)
      .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
      .where(eq(couponRedemptions.userId, id))
      .orderBy(desc(couponRedemptions.redeemedAt))
      .limit(SHOWN),
    db.select().from(nolEntries).where(eq(nolEntries.userId, id)).orderBy(desc(nolEntries.updatedAt)).limit(SHOWN),
    db
      .select({ notice: notices, claim: claims, notarization: notarizations })
      .from(notices)
      .innerJoin(claims, eq(claims.id, notices.claimId))
      .leftJoin(notarizations, noticeNotarization)
      .where(eq(claims.claimantId, id))
      .orderBy(desc(notices.id))
      .limit(SHOWN),
    db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt), sql`${sessions.expiresAt} > now()`))
      .orderBy(desc(sessions.lastSeenAt))
      .limit(SHOWN),
    db
      .select()
      .from(supportRequests)
      .where(eq(supportRequests.userId, id))
      .orderBy(desc(supportRequests.createdAt))
      .limit(SHOWN),
    db
      .select({ entry: auditLog, actor: actor.username, agent: agent.username })
      .from(auditLog)
      .leftJoin(actor, eq(actor.id, auditLog.actorUserId))
      .leftJoin(agent, eq(agent.id, auditLog.agentUserId))
      .where(
        or(
          and(eq(auditLog.entity, "user"), eq(auditLog.entityId, id)),
          eq(auditLog.actorUserId, id),
          eq(auditLog.agentUserId, id),
        ),
      )
      .orderBy(desc(auditLog.id))
      .limit(50),
  ]);
  const versionRows = await db
    .selectDistinct({ cause: nolEntries.causeCode, version: nolEntries.descriptiveVersion })
    .from(nolEntries)
    .where(eq(nolEntries.userId, id))
    .orderBy(nolEntries.causeCode, nolEntries.descriptiveVersion)
    .limit(50);
  const features = await featuresOf(db, id, null);
  const causeNames = new Map(
    (await db.select({ code: causes.code, name: causes.name }).from(causes)).map((c) => [c.code, c.name]),
  );
  const causeName = (code: string) => causeNames.get(code) ?? code;
  const timelines = await memberTimelines(services, id, detail.username);
  const factors = await factorOverview(db, id);
  await audit(db, actorOf(admin), "members.view", "user", id);
  return {
    factors: {
      passkeys: factors.passkeys.length,
      totp: factors.totp !== null,
      recoveryCodesLeft: factors.recoveryCodesLeft,
    },
    timelines,
    trackingUrl: services.config.trackingUrl,
    credits: await creditSummary(db, id),
    complimentary: await complimentaryOf(services, id),
    detail: { ...detail, lastSeenAt: iso(member.lastSeenAt) },
    flags: { nolCreator: member.nolCreator, nolTester: member.nolTester, admin: member.admin },
    billing,
    coupons: couponRows.map((c) => ({ ...c, redeemedAt: c.redeemedAt.toISOString() })),
    entries: entryRows.map((e) => ({
      id: e.id,
      cause: causeName(e.causeCode),
      version: e.descriptiveVersion,
      label: entryName({ form: e.form, tb_value: e.tbValue, nol_tracking: e.nolTracking }),
      rounds: e.nolTracking.length,
      updatedAt: e.updatedAt.toISOString(),
    })),
    versions: versionRows.map((v, i) => ({
      ...v,
      causeName: causeName(v.cause),
      id: `${v.cause}-${i + 1}`,
      ...features(v.cause, v.version),
    })),
    notices: noticeRows.map(({ notice, claim, notarization }) => ({
      id: notice.id,
      cause: causeName(claim.causeCode),
      version: claim.nolVersion,
      round: labelOfStoredRound(services.logger, notice.roundCnt, "a member's page"),
      notarization: notarization ? (notarization.nzStatus ?? "started") : null,
    })),
    sessions: sessionRows.map((s) => ({
      code: sessionCode(s.id),
      device: deviceOf(s.userAgent),
      ip: s.ip,
      carrier: s.carrier,
      agentMode: s.agentUserId !== null,
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
    })),
    support: supportRows.map((r) => ({ id: r.id, subject: r.subject, createdAt: r.createdAt.toISOString() })),
    audit: auditRows.map(({ entry, actor: by, agent: as }) => ({
      id: entry.id,
      action: entry.action,
      entity: entry.entity,
      by: by && entry.actorUserId ? { id: entry.actorUserId, username: by } : null,
      as: as && entry.agentUserId ? { id: entry.agentUserId, username: as } : null,
      ip: entry.ip,
      at: entry.createdAt.toISOString(),
    })),
  };
}

/** An admin logs out one session of a member, named by its code; audited. */
export async function endMemberSession(services: AppServices, admin: Viewer, memberId: string, code: string) {
  const rows = await services.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, memberId), isNull(sessions.revokedAt)));
  const target = rows.find((r) => sessionCode(r.id) === code);
  if (!target) throw notFound("No such session");
  await services.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, target.id));
  await audit(services.db, actorOf(admin), "sessions.revoke-one", "user", memberId, { session: code });
}

/** An admin sets a member's flags (NoL creator, NoL tester); audited with what changed. */
export async function setMemberFlags(
  services: AppServices,
  admin: Viewer,
  memberId: string,
  flags: { nolCreator: boolean; nolTester: boolean },
) {
  const [before] = await services.db
    .select({ nolCreator: users.nolCreator, nolTester: users.nolTester })
    .from(users)
    .where(eq(users.id, memberId));
  if (!before) throw notFound("No such member");
  await services.db
    .update(users)
    .set({ ...flags, updatedAt: new Date() })
    .where(eq(users.id, memberId));
  await audit(services.db, actorOf(admin), "members.flags", "user", memberId, { before, after: flags });
}
