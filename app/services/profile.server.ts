import { createHash } from "node:crypto";
import { and, desc, eq, isNull, ne, sql } from "drizzle-orm";
import type { AppServices } from "~/context";
import { sessions, users } from "~/db/schema";
import { invalid, notFound } from "~/domain/errors";
import { documentKindOf, documentRoundLabel, documentTitle } from "~/domain/documents/document-data";
import { stepNotarizes } from "~/domain/documents/notarize-offer";
import { notarizedHref } from "~/domain/documents/notarize-view";
import { previewHref } from "~/domain/documents/notice-ids";
import { deviceOf } from "~/domain/profile";
import { hashPassword, verifyPassword } from "~/lib/password.server";
import { communityName, VERIFY_TTL_MS } from "./accounts.server";
import { audit, actorOf } from "./audit.server";
import { noticeIdsOf, noticesOf, type NoticeRecord } from "./documents/notices.server";
import { causeChoices } from "./nol/access.server";
import { entriesOf, versionsOf, versionState } from "./nol/entries.server";
import { personalWords, refuseWeakPassword } from "./password.server";
import type { Viewer } from "./session.server";
import { issueToken } from "./tokens.server";

/** A member's own account: their name, e-mail and password, their sessions, their notices. */

/** The same words sign-up uses for an address in use, so the two tell an outsider the same. */
export const EMAIL_IN_USE = "An account already uses that e-mail address; log in or reset your password";

export async function changeName(services: AppServices, viewer: Viewer, name: string | undefined) {
  await services.db
    .update(users)
    .set({ name: name || null, updatedAt: new Date() })
    .where(eq(users.id, viewer.member.id));
  await audit(services.db, actorOf(viewer), "profile.name", "user", viewer.member.id);
}

/**
 * Mails a link to the new address; the address changes only when the link is opened
 * (/signup/verify). The old address is told, so a change the member did not make is noticed.
 */
export async function requestEmailChange(services: AppServices, viewer: Viewer, email: string) {
  const { db, config, providers } = services;
  const member = viewer.member;
  if (email === member.email.toLowerCase())
    throw invalid("That is your address already", { email: ["That is your address already"] });
  const taken = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email}`, ne(users.id, member.id)))
    .limit(1);
  if (taken.length > 0) throw invalid(EMAIL_IN_USE, { email: [EMAIL_IN_USE] });
  const token = await issueToken(db, "verify_email", member.id, VERIFY_TTL_MS, { newEmail: email });
  await providers.mail.send({
    to: email,
    template: "email-change",
    subject: "Confirm your new e-mail address",
    text: `Hello ${member.username},\n\nOpen this link within 48 hours to make ${email} your address at ${communityName(services)}:\n\n${config.baseUrl}/signup/verify?token=${token}\n\nUntil then your address stays ${member.email}.`,
  });
  await providers.mail.send({
    to: member.email,
    template: "email-change-notice",
    subject: "Your e-mail address is about to change",
    text: `Hello ${member.username},\n\nSomeone signed in as you asked to change your address to ${email}. It changes only when the link sent there is opened.\n\nIf this was not you, change your password now and write to ${config.supportEmail}.`,
  });
  await audit(db, actorOf(viewer), "profile.email-change-requested", "user", member.id);
}

/** A new password needs the current one; every other session ends with the change. */
export async function changePassword(
  services: AppServices,
  viewer: Viewer,
  input: { current: string; password: string },
) {
  const { db } = services;
  const member = viewer.member;
  const [row] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, member.id));
  if (!row?.hash || !(await verifyPassword(input.current, row.hash))) {
    throw invalid("That is not your current password", { current: ["That is not your current password"] });
  }
  refuseWeakPassword(
    input.password,
    personalWords({ username: member.username, email: member.email, community: communityName(services) }),
  );
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(input.password), updatedAt: new Date() })
    .where(eq(users.id, member.id));
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, member.id), isNull(sessions.revokedAt), ne(sessions.id, viewer.session.id)));
  await audit(db, actorOf(viewer), "profile.password", "user", member.id);
}

/** How the page names a session: a code made from its id, which never leaves the server itself. */
export function sessionCode(sessionId: string): string {
  return createHash("sha256").update(sessionId).digest("hex").slice(0, 16);
}

/** The member's live sessions, this one first, each with its device, address and last use. */
export async function sessionList(services: AppServices, viewer: Viewer) {
  const rows = await services.db
    .select()
    .from(sessions)
    .where(
      and(eq(sessions.userId, viewer.session.userId), isNull(sessions.revokedAt), sql`${sessions.expiresAt} > now()`),
    )
    .orderBy(desc(sessions.lastSeenAt))
    .limit(50);
  return rows
    .map((s) => ({
      code: sessionCode(s.id),
      device: deviceOf(s.userAgent),
      ip: s.ip,
      lastSeenAt: s.lastSeenAt.toISOString(),
      createdAt: s.createdAt.toISOString(),
      current: s.id === viewer.session.id,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current));
}

/** Logs out one of the member's other sessions, named by its code. */
export async function endSession(services: AppServices, viewer: Viewer, code: string) {
  const rows = await services.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, viewer.session.userId), isNull(sessions.revokedAt)));
  const target = rows.find((r) => sessionCode(r.id) === code);
  if (!target) throw notFound("No such session");
  if (target.id === viewer.session.id) throw invalid("Use Logout to end this session");
  await services.db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, target.id));
  await audit(services.db, actorOf(viewer), "sessions.revoke", "user", viewer.session.userId);
}

/**
 * A recorded round's document, to open or save, and its notarized copy once the notary is done.
 * The addresses serve only the member's own notices (previewNotice, notarizedDocument).
 */
function documentLinks(record: NoticeRecord) {
  const ids = noticeIdsOf(record);
  const n = record.notarization;
  return {
    round: ids.round_cnt,
    // "Round 1 Notice of Liability"; a true bill's name says its round: "First True Bill".
    name:
      documentKindOf(ids.round_cnt) === "notice"
        ? `${documentRoundLabel(ids.round_cnt)} ${documentTitle(ids.round_cnt)}`
        : documentTitle(ids.round_cnt),
    href: previewHref(ids),
    download: previewHref(ids, { download: true }),
    notarized: notarizedHref(n ? { nz_id: n.nzId, nz_status: n.nzStatus } : null),
  };
}

/** The member's causes with notices: each version's next step, where to go on, and its documents. */
export async function noticesOverview(services: AppServices, viewer: Viewer) {
  const rows = await entriesOf(services.db, viewer.member.id);
  const { choices } = await causeChoices(services, viewer.member);
  const codes = [...new Set(rows.map((r) => r.causeCode))];
  const records = new Map(
    await Promise.all(codes.map(async (code) => [code, await noticesOf(services.db, viewer.member, code)] as const)),
  );
  return codes.map((code) => {
    const mine = rows.filter((r) => r.causeCode === code);
    const option = choices.find((c) => c.code === code && c.enabled);
    const base = option ? `/nol/creator/${option.slug}` : null;
    return {
      cause: option?.name ?? code,
      href: base,
      versions: versionsOf(mine).map((version) => {
        const state = versionState(mine, version);
        const query = new URLSearchParams({ version });
        return {
          version,
          step: state.step.label,
          correctionHref: state.creator
            ? `/notice-of-correction?${new URLSearchParams({ cause: code, version })}`
            : null,
          notarizeHref: base && stepNotarizes(state.step, state.creator !== null) ? `${base}/notarize?${query}` : null,
          documents: (records.get(code) ?? []).filter((r) => r.claim.nolVersion === version).map(documentLinks),
        };
      }),
    };
  });
}
