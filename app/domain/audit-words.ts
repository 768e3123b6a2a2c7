import { roundLabel } from "./nol/rounds";
import { humanize } from "./words";

/** The audit log's actions in words, for the admins' pages; the log and its CSV keep the codes. */

const STEP_WORDS: Record<string, string> = {
  notice: "a notice",
  mailing: "a mailing",
  proof: "a proof of delivery",
  "setup-billing": "the billing setup",
  "true-bill": "a true bill",
  "true-bill-mailing": "a true bill's mailing",
  "true-bill-proof": "a true bill's proof of delivery",
};

const FLAG_WORDS: Record<string, string> = { nolCreator: "NoL creator", nolTester: "NoL tester" };

const AUDIT_WORDS: Record<string, string> = {
  "agent.start": "Began representing a member",
  "agent.stop": "Stopped representing a member",
  "causes.add": "Added a cause",
  "causes.save": "Changed a cause",
  "change-email": "Confirmed a new e-mail address",
  "checkout.start": "Began a payment",
  "coupon.archive": "Archived a coupon",
  "coupon.create": "Created a coupon",
  "coupon.update": "Changed a coupon",
  "coupon_discount.create": "Created a coupon offer",
  "coupon_discount.update": "Changed a coupon offer",
  "coupon_discount.delete": "Deleted a coupon offer",
  "credits.grant": "Granted notarize credits",
  "data.archive-requested": "Asked for their data",
  "data.archive-made": "Their data archive was made",
  "data.archive-downloaded": "Downloaded their data archive",
  "account.delete-requested": "Deleted the account (erased after its grace period)",
  "account.delete-undone": "Kept the deleted account",
  "account.erase-requested": "Erased a member at their request",
  "account.erased": "An account was erased",
  "document-disclaimer.save": "Changed the “not legal advice” notice",
  "document-template.create": "Created a document template",
  "document-template.save": "Changed a document template",
  "factor.added": "Added a second factor",
  "factor.device-remembered": "Remembered a device for the second factor",
  "factor.removed": "Removed a second factor",
  "factor.reset": "Reset every second factor",
  "factor.used": "Passed the second factor",
  "form.entry.create": "Created a form entry",
  "form.entry.delete": "Deleted a form entry",
  "form.entry.update": "Changed a form entry",
  login: "Logged in",
  "login.handoff": "Logged in from the learning site",
  "login.password": "Gave the right password, the second factor to follow",
  "login.factor.failed": "Typed a wrong second-factor code after the right password",
  "login.factor.locked": "Held back after too many wrong second-factor codes (the member was e-mailed)",
  logout: "Logged out",
  "members.bulk.email": "E-mailed members",
  "membership.complimentary.end": "Ended a complimentary membership",
  "membership.complimentary.grant": "Granted a complimentary membership",
  "members.import.check": "Checked a members import (dry run)",
  "members.import.start": "Started a members import",
  "members.import.done": "A members import ended",
  "backups.start": "Asked for a backup",
  "backups.done": "A backup was made",
  "backups.failed": "A backup failed",
  "backups.download": "Downloaded a backup",
  "backups.delete": "Deleted a backup",
  "backups.sent": "A backup reached the store",
  "backups.verify.passed": "A backup's test restore passed",
  "backups.verify.failed": "A backup's test restore failed",
  "password-set-from-invitation": "Chose a password from an invitation",
  "members.export": "Exported members",
  "members.flags": "Changed a member's roles",
  "members.view": "Viewed a member's page",
  "nol.editor.add": "Let someone edit their notices",
  "nol.editor.remove": "Stopped someone editing their notices",
  "nol.round.sign": "Signed a round's notice electronically",
  "nol.service.delivered": "Recorded a respondent's delivery",
  "nol.service.left_out": "Left a respondent out of a round",
  "nol.service.mailed": "Recorded a notice mailed by hand",
  "nol.service.returned": "Recorded an envelope returned to sender",
  "mailing.cancel": "Cancelled a letter before print",
  "nol.submitted": "Submitted a NoL form",
  "nol.version-features": "Changed what a NoL version may do",
  "notice.correction": "Asked for a notice of correction",
  "password-reset": "Reset their password",
  "profile.email-change-requested": "Asked to change their e-mail address",
  "profile.name": "Changed their name",
  "profile.password": "Changed their password",
  "records.export": "Exported records",
  rejoin: "Joined again",
  "respondents.approve": "Approved a respondent",
  "respondents.reject": "Turned down a respondent",
  "respondents.submit": "Suggested a respondent",
  "sessions.revoke": "Logged out a session",
  "sessions.revoke-one": "Logged out a member's session",
  "sessions.revoke-others": "Logged out the other sessions",
  "settings.links": "Changed the community links",
  "setup.profile": "Finished the setup's details",
  signup: "Signed up",
  "subscription.cancel": "Set the membership to end",
  "subscription.change-plan": "Changed the plan",
  "subscription.renew": "Renewed a membership now",
  "subscription.resume": "Resumed the membership",
  "support.request": "Asked for support",
  "verify-email": "Confirmed their e-mail address",
};

/** An audit action in words: "nol.step.true-bill-mailing" → "Saved a true bill's mailing". */
export function auditActionWords(action: string): string {
  const known = AUDIT_WORDS[action];
  if (known) return known;
  const step = /^nol\.step\.(.+)$/.exec(action);
  if (step && STEP_WORDS[step[1]!]) return `Saved ${STEP_WORDS[step[1]!]}`;
  const bulk = /^members\.bulk\.(set|clear)-(\w+)$/.exec(action);
  if (bulk && FLAG_WORDS[bulk[2]!]) {
    return bulk[1] === "set" ? `Made members ${FLAG_WORDS[bulk[2]!]}s` : `Took ${FLAG_WORDS[bulk[2]!]} from members`;
  }
  return humanize(action);
}

/** How many members a change reached, and the first of them by name: "3 members: ada, bo and cy". */
export const NAMED_MEMBERS_MAX = 10;

/** The names of `count` members, the first of them given: "ada, bo and cy", "ada, bo and 8 more"; "" for none. */
export function namesOf(count: number, usernames: readonly string[]): string {
  const names = usernames.slice(0, Math.min(count, NAMED_MEMBERS_MAX));
  if (names.length === 0) return "";
  const more = count - names.length;
  if (more > 0) return `${names.join(", ")} and ${more.toLocaleString("en-US")} more`;
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0]!;
}

export function membersNamed(count: number, usernames: readonly string[]): string {
  if (count === 0) return "No member";
  const many = `${count.toLocaleString("en-US")} ${count === 1 ? "member" : "members"}`;
  const names = namesOf(count, usernames);
  return names ? `${many}: ${names}` : many;
}

/** What an audit entry was about, as the log's records give it. */
export type AuditSubject =
  /** One member, by username; null when the account is gone. */
  | { kind: "member"; username: string | null }
  /** A member's NoL entry: whose, which cause and version, which round. */
  | { kind: "entry"; owner: string | null; cause: string; version: string; round: unknown }
  /** A change to many members at once. */
  | { kind: "members"; count: number; usernames: string[] }
  /** Anything else: its kind, and a code people read (a coupon's, a file's name), never a bare id. */
  | { kind: "record"; entity: string; name: string | null };

const ENTITY_WORDS: Record<string, string> = {
  backup: "Backup",
  cause: "Cause",
  checkout: "Payment",
  coupon: "Coupon",
  coupon_discount: "Coupon offer",
  document_template: "Document template",
  form_entry: "Form entry",
  member_import: "Members import",
  nol_entry: "A NoL version no longer kept",
  pending_submission: "NoL form sent",
  round_signature: "Signature of a round",
  session: "Session",
  settings: "Settings",
  subscription: "Membership",
  support_request: "Support request",
};

/** What an audit entry was about, in words: "ada", "ada's Traffic Stop version “Home”, Round 2". */
export function auditSubjectWords(subject: AuditSubject): string {
  switch (subject.kind) {
    case "member":
      return subject.username ?? "A member whose account is gone";
    case "entry": {
      const round = roundLabel(subject.round).label;
      const whose = subject.owner ? `${subject.owner}'s` : "A deleted member's";
      return `${whose} ${subject.cause} version “${subject.version}”${round ? `, ${round}` : ""}`;
    }
    case "members":
      return membersNamed(subject.count, subject.usernames);
    case "record": {
      const kind = ENTITY_WORDS[subject.entity] ?? humanize(subject.entity);
      return subject.name ? `${kind} ${subject.name}` : kind;
    }
  }
}
