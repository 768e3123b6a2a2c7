import type { MembershipStatus } from "./billing-account";
import { NOTARIZE_STATUS_WORDS } from "./documents/notarize-view";

/**
 * The codes the database keeps (membership statuses, notarize statuses, audit actions, cause
 * statuses) in the words the pages show them in. Exports keep the codes.
 */

export const MEMBERSHIP_STATUSES: readonly MembershipStatus[] = [
  "ACTIVE",
  "TRIALING",
  "PAST_DUE",
  "UNPAID",
  "CANCELED",
  "INCOMPLETE",
  "INCOMPLETE_EXPIRED",
  "PAUSED",
];

const MEMBERSHIP_WORDS: Record<MembershipStatus, string> = {
  ACTIVE: "Active",
  TRIALING: "Trial",
  PAST_DUE: "Payment overdue",
  UNPAID: "Unpaid",
  CANCELED: "Canceled",
  INCOMPLETE: "Awaiting the first payment",
  INCOMPLETE_EXPIRED: "First payment never made",
  PAUSED: "Paused",
};

/** A membership's status in a word or two, for lists and facts; no membership says so. */
export function membershipWords(status: string | null | undefined): string {
  if (!status || status === "none") return "No membership";
  return MEMBERSHIP_WORDS[status as MembershipStatus] ?? humanize(status);
}

/** A cause's status in a country, in the spec's words (§ cause status): available (live), testing, started (beta). */
const CAUSE_STATUS_WORDS: Record<string, string> = {
  live: "Available (live)",
  testing: "Testing",
  beta: "Started (beta)",
};

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
  "document-disclaimer.save": "Changed the “not legal advice” notice",
  "document-template.create": "Created a document template",
  "document-template.save": "Changed a document template",
  "form.entry.create": "Created a form entry",
  "form.entry.delete": "Deleted a form entry",
  "form.entry.update": "Changed a form entry",
  login: "Logged in",
  "login.handoff": "Logged in from the learning site",
  logout: "Logged out",
  "members.bulk.email": "E-mailed members",
  "members.export": "Exported members",
  "members.flags": "Changed a member's roles",
  "members.view": "Viewed a member's page",
  "nol.editor.add": "Let someone edit their notices",
  "nol.editor.remove": "Stopped someone editing their notices",
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

/** "nz_status" → "Nz status": a code no list names yet, read as words. */
function humanize(code: string): string {
  const words = code
    .replace(/[._-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const JOB_STATE_WORDS: Record<string, string> = {
  created: "Waiting",
  retry: "Waiting to try again",
  active: "Running",
  completed: "Done",
  cancelled: "Cancelled",
  failed: "Failed",
};

const JOB_WORDS: Record<string, string> = {
  "mail-retry-pending": "Sending the mail that waits",
  "password-reset-mail": "Password reset e-mail",
  "payment-receipt": "Payment receipt e-mail",
  "payment-failed-notice": "Failed payment e-mail",
  "payments-sandbox-events": "Sandbox payment events",
  "payments-sandbox-renewals": "Sandbox membership renewals",
  "notary-sandbox-events": "Sandbox notary events",
  "notary-poll": "Checking notarizations at the notary",
  "members-mail": "E-mail to members",
};

/** The lists of codes a page can show in words: a list column names its vocabulary. */
export const VOCABULARIES = {
  membership: membershipWords,
  notarize: (status: string) => NOTARIZE_STATUS_WORDS[status] ?? humanize(status),
  auditAction: auditActionWords,
  causeStatus: (status: string) => CAUSE_STATUS_WORDS[status] ?? humanize(status),
  jobState: (state: string) => JOB_STATE_WORDS[state] ?? humanize(state),
  job: (name: string) => JOB_WORDS[name] ?? humanize(name),
} satisfies Record<string, (code: string) => string>;

export type Vocabulary = keyof typeof VOCABULARIES;

export function inWords(vocabulary: Vocabulary | null | undefined, code: string): string {
  return vocabulary ? VOCABULARIES[vocabulary](code) : code;
}

/** A country's name from its ISO code ("US" → "United States"); the code where the name is not known. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
