import { auditActionWords } from "./audit-words";
import { NOTARIZE_STATUS_WORDS } from "./documents/notarize-view";
import { CAUSE_STATUS_WORDS } from "./cause-catalogue";
import { humanize, membershipWords } from "./words";

/** The lists of codes an admin's list or record can show in words, by name: a list column names its own. */

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
  "mailhouse-sandbox-events": "Sandbox mail house: letters on their way",
  "mailings-poll": "Checking letters at the mail house",
  "members-mail": "E-mail to members",
  "nol-reminders": "NoL reminders",
  "complimentary-ends": "Ending complimentary memberships",
  "members-import": "Members import",
  "members-import-invitations": "Members import: invitations",
  backup: "Backup",
  "backups-daily": "Daily backup",
  "backups-send": "Sending backups to the store",
  "member-archive": "A member's data archive",
  "member-archives-sweep": "Removing expired data archives",
  "account-erasure-sweep": "Erasing deleted accounts past their grace period",
  "recovery-codes-rekey": "Storing older recovery codes under the server's key",
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
