import type { DocumentFacts } from "./document-data";
import type { DocumentKind } from "./placeholders";

/**
 * The sample templates the app ships (one for notices, one for true bills, for any cause and
 * round) and the sample round the template editor previews. Plain wording that only lays out
 * what the member entered: each community writes its own.
 */

const NOTICE = `# {{title}}
{{round_label}} of "{{nol_version}}" · {{cause.name}}

Date: {{notice_date}}
From: {{claimant.name}}
Reference: {{exhibit}}

To the respondents:
{{respondents}}

This letter is sent by {{claimant.name}} about the matter named "{{nol_version}}" ({{cause.name}}). It asks each respondent listed above to read it and to answer in writing.

Letters sent before this one: {{prior_rounds}}.
Daily amount named by the sender: {{daily_amount}}.

# Mailing
Mailed on: {{mailing_date}}
Tracking number: {{tracking_number}}
Delivered: {{delivered}}

Signed,


____________________________
{{claimant.name}}`;

const TRUE_BILL = `# {{title}}
Bill {{true_bill_number}} of "{{nol_version}}" · {{cause.name}}

Prepared on: {{preparation_date}}
From: {{claimant.name}}
Reference: {{exhibit}}

Billed to:
{{respondents}}

This bill follows the letters sent before it ({{prior_rounds}}) about the matter named "{{nol_version}}".

# Amounts
Administrative judgment: {{administrative_judgment}}
Escalation fee (20% of the prior bill's judgment): {{escalation_fee}}
Total of this bill: {{true_bill_total}}

First True Bill, prepared on {{first_preparation_date}}: {{first_true_bill_total}}

# Mailing
Mailed on: {{mailing_date}}
Tracking number: {{tracking_number}}
Delivered: {{delivered}}


____________________________
{{claimant.name}}`;

const PROOF_OF_SERVICE = `# Proof of Service

{{cause.name}} · {{nol_version}} · Exhibit {{exhibit}}

I, {{claimant.name}}, served the {{title}} ({{round_label}}) on each respondent below by
certified mail on {{mailing_date}}, each envelope with its own tracking number.

{{service_list}}

Delivered: {{delivered}}, on {{delivery_date}}.

I declare that the above is true and correct.

____________________________
{{claimant.name}}`;

export const SAMPLE_TEMPLATES: Record<DocumentKind, string> = {
  notice: NOTICE,
  "true-bill": TRUE_BILL,
  "proof-of-service": PROOF_OF_SERVICE,
};

const SAMPLE_RESPONDENTS = [
  { slot: 1, name: "Example Agency", type: "Agency" },
  { slot: 2, name: "Officer A. Example", type: "Official" },
  { slot: 3, name: "Sample Holdings Ltd", type: "Corporation" },
  { slot: 9, name: "Joined Party Example", type: "Joinder" },
  { slot: 13, name: "Late Respondent Example", type: "Individual" },
];

/** The round an editor's preview shows: invented values for every placeholder of its kind. */
export function sampleFacts(input: {
  kind: DocumentKind;
  round: number | null;
  cause: { code: string; name: string };
}): DocumentFacts {
  const round = input.round ?? (input.kind === "notice" ? 1 : 5);
  return {
    round,
    claimantName: "Sample Claimant",
    cause: input.cause,
    countryCode: "US",
    version: "Sample version",
    exhibit: `${input.cause.code}-000000`,
    noticeDate: "2026-03-02",
    respondents: SAMPLE_RESPONDENTS,
    dailyAmountCents: 25_000,
    mailing: {
      date: "2026-03-03",
      tracking: "RR123456789US",
      delivered: input.kind === "proof-of-service",
      deliveredOn: input.kind === "proof-of-service" ? "2026-03-06" : null,
    },
    service:
      input.kind === "proof-of-service"
        ? SAMPLE_RESPONDENTS.filter((r) => r.slot <= 8).map((r, i) => ({
            ...r,
            address: i === 0 ? null : `${100 + i} Example Street, Springfield`,
            tracking: `RR12345678${i}US`,
          }))
        : null,
    bill:
      input.kind === "true-bill"
        ? {
            preparationDate: "2026-07-01",
            firstPreparationDate: "2026-06-01",
            administrativeJudgmentCents: 1_200_000,
            firstAdministrativeJudgmentCents: 1_000_000,
            escalationFeeCents: 200_000,
            totalCents: 1_400_000,
            firstTotalCents: 1_000_000,
            billedSlots: [1, 2, 9],
          }
        : null,
  };
}

/** The cause a preview of an any-cause template names. */
export const SAMPLE_CAUSE = { code: "XX", name: "Sample Cause" };
