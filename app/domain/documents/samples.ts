import { roundService } from "../nol/service";
import type { DocumentFacts } from "./document-data";
import type { DocumentKind } from "./placeholders";

/**
 * The sample templates the app ships (one for notices, one for true bills, for any cause and
 * round) and the sample round the template editor previews. Plain wording that only lays out
 * what the member entered: each community writes its own.
 *
 * A notice and a true bill are letters, one per respondent: "@from" lines print the claimant's
 * return address at the top left, "@to" lines the respondent's address in the window of a #10
 * envelope (LETTER_AREAS in ./letters), the rest of the text below the window. "@signature"
 * is where the member's signature is printed (or a line to sign by hand).
 */

const LETTER_HEAD = `@from {{claimant.name}}
@from {{claimant.address}}
@to {{respondent.name}}
@to {{respondent.address}}`;

const NOTICE = `${LETTER_HEAD}
# {{title}}
{{round_label}} of "{{nol_version}}" · {{cause.name}}

Date: {{notice_date}}
From: {{claimant.name}}
To: {{respondent.name}} ({{respondent.type}})
Reference: {{exhibit}}
Mailed on: {{mailing_date}} · Tracking number: {{tracking_number}}

Sent to each respondent, each in a letter of its own:
{{respondents}}

This letter is sent by {{claimant.name}} about the matter named "{{nol_version}}" ({{cause.name}}). It asks each respondent listed above to read it and to answer in writing.

Letters sent before this one: {{prior_rounds}}.
Daily amount named by the sender: {{daily_amount}}.

@signature
{{claimant.name}}`;

const TRUE_BILL = `${LETTER_HEAD}
# {{title}}
Bill {{true_bill_number}} of "{{nol_version}}" · {{cause.name}}

Prepared on: {{preparation_date}}
From: {{claimant.name}}
To: {{respondent.name}} ({{respondent.type}})
Reference: {{exhibit}}
Mailed on: {{mailing_date}} · Tracking number: {{tracking_number}}

Billed to, each in a letter of its own:
{{respondents}}

This bill follows the letters sent before it ({{prior_rounds}}) about the matter named "{{nol_version}}".

# Amounts
Administrative judgment: {{administrative_judgment}}
Escalation fee (20% of the prior bill's judgment): {{escalation_fee}}
Total of this bill: {{true_bill_total}}

First True Bill, prepared on {{first_preparation_date}}: {{first_true_bill_total}}

@signature
{{claimant.name}}`;

const PROOF_OF_SERVICE = `# Proof of Service

{{cause.name}} · {{nol_version}} · Exhibit {{exhibit}}

I, {{claimant.name}}, served the {{title}} ({{round_label}}) by certified mail as stated
for each respondent below, each envelope with its own tracking number and days.

{{service_list}}

Every respondent served or stated as not served: {{delivered}}, the last delivery on {{delivery_date}}.

I declare that the above is true and correct.

____________________________
{{claimant.name}}`;

export const SAMPLE_TEMPLATES: Record<DocumentKind, string> = {
  notice: NOTICE,
  "true-bill": TRUE_BILL,
  "proof-of-service": PROOF_OF_SERVICE,
};

const SAMPLE_RESPONDENTS = [
  { slot: 1, name: "Example Agency", type: "Agency", address: "1 Example Plaza, Springfield, IL 62701" },
  { slot: 2, name: "Officer A. Example", type: "Official", address: "2 Precinct Way\nSpringfield, IL 62702" },
  { slot: 3, name: "Sample Holdings Ltd", type: "Corporation", address: null },
  { slot: 9, name: "Joined Party Example", type: "Joinder", address: "9 Sample Road, Springfield, IL 62703" },
  { slot: 13, name: "Late Respondent Example", type: "Individual", address: "13 Late Lane, Springfield, IL 62704" },
];

/** A sample round served by hand on each respondent of round 1, each envelope with its own number and days. */
function sampleService(round: number) {
  const addressed = SAMPLE_RESPONDENTS.filter((r) => r.slot <= 8).map((r, i) => ({
    slot: r.slot,
    name: r.name,
    type: r.type,
    address: i === 0 ? null : `${100 + i} Example Street, Springfield`,
  }));
  const at = new Date("2026-03-03T12:00:00Z");
  const records = addressed.flatMap((r, i) => [
    {
      id: 2 * i + 1,
      slot: r.slot,
      kind: "mailed" as const,
      day: "2026-03-03",
      trackingNumber: `RR12345678${i}US`,
      reason: null,
      createdAt: at,
    },
    {
      id: 2 * i + 2,
      slot: r.slot,
      kind: "delivered" as const,
      day: `2026-03-0${5 + (i % 2)}`,
      trackingNumber: null,
      reason: null,
      createdAt: at,
    },
  ]);
  const typed = { mailedOn: null, tracking: {}, single: null, delivered: false, deliveredOn: null };
  return roundService({ round, addressed, letters: [], records, typed });
}

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
    claimantAddress: "100 Sample Street\nSpringfield, IL 62701",
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
    served: input.kind === "proof-of-service" ? sampleService(round) : null,
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
