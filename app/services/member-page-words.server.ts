import { auditActionWords } from "~/domain/audit-words";
import { cleanLabel } from "~/domain/member-labels";
import { inWords } from "~/domain/vocabularies";
import { countryName, membershipLine } from "~/domain/words";
import { formatDate } from "~/lib/format";
import type { memberPage } from "./member-page.server";

/**
 * A member's page for admins with its words put in on the server (the audit's, the
 * notarizations', the country's, the membership's, the labels as written), so that the page's script carries no vocabulary.
 */
export function memberPageInWords(page: Awaited<ReturnType<typeof memberPage>>) {
  return {
    ...page,
    countryShown: page.detail.country ? countryName(page.detail.country) : null,
    membershipShown: membershipLine(page.billing.membership, formatDate),
    factorsShown: factorsInWords(page.factors),
    labelsShown: [...new Set(page.detail.labels.map(cleanLabel).filter(Boolean))].join(", "),
    audit: page.audit.map((entry) => ({ ...entry, what: auditActionWords(entry.action) })),
    notices: page.notices.map((notice) => ({
      ...notice,
      notarization: notice.notarization ? inWords("notarize", notice.notarization) : null,
    })),
  };
}

/** The member's second factors in a sentence: "2 passkeys, an authenticator app, 8 recovery codes left." */
function factorsInWords(factors: { passkeys: number; totp: boolean; recoveryCodesLeft: number }) {
  if (factors.passkeys === 0 && !factors.totp) return "No second factor.";
  const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
  return (
    [
      factors.passkeys > 0 ? plural(factors.passkeys, "passkey") : null,
      factors.totp ? "an authenticator app" : null,
      `${plural(factors.recoveryCodesLeft, "recovery code")} left`,
    ]
      .filter(Boolean)
      .join(", ") + "."
  );
}
