import { formatDate, formatMoney } from "~/lib/format";
import { slotsOpenIn, type RespondentAddress, type SlotRespondent } from "../nol/billing";
import { NOTICE_ROUNDS, roundLabel, roundsDoneLabel, trueBillName, trueBillNumber } from "../nol/rounds";
import { NOTICE_NAMES } from "../nol/steps";
import { addressLines, isLetterTemplate } from "./letters";
import type { DocumentKind, DocumentValues } from "./placeholders";

/** What the document of one round is made from: the claim, the round's entry and the version's respondents. */
export type DocumentFacts = {
  round: number;
  claimantName: string;
  /** The claimant's mailing address as the notice step took it (lines, or one line with commas); null when not given. */
  claimantAddress?: string | null;
  cause: { code: string; name: string };
  countryCode: string;
  version: string;
  exhibit: string | null;
  /** When the round was submitted. */
  noticeDate: Date | string;
  /** Everyone the version names, in their slots (1–16), with their mailing addresses where known. */
  respondents: DocumentRespondent[];
  dailyAmountCents: number | null;
  mailing: { date: string | null; tracking: string | null; delivered: boolean; deliveredOn?: string | null };
  /** A proof of service's respondents: each served one's address and tracking number; null for other documents. */
  service?: ServiceLine[] | null;
  /** A true bill's own values; null for a notice round. */
  bill: {
    preparationDate: string | null;
    firstPreparationDate: string | null;
    administrativeJudgmentCents: number | null;
    firstAdministrativeJudgmentCents: number | null;
    escalationFeeCents: number | null;
    totalCents: number | null;
    firstTotalCents: number | null;
    /** The slots the bill bills; null when the entry does not say (a hosted form's bill): all of them. */
    billedSlots: number[] | null;
  } | null;
};

/** A respondent a document names, with the mailing address the records keep (null or missing: none given). */
export type DocumentRespondent = SlotRespondent & { address?: RespondentAddress | string | null };

/** A respondent a round was served on: the address used (null: not recorded) and the envelope's tracking number. */
export type ServiceLine = SlotRespondent & {
  address: string | null;
  tracking: string | null;
  /** The letter mailed from the app to this respondent: the address it went to, and what became of it. */
  letter?: { address: string; deliveredOn: string | null; returnedOn: string | null; returnReceipt: boolean } | null;
};

/** spec §9 "Rounds 1 to 3 are notice rounds; true bills count from 4." */
export function documentKindOf(round: number): DocumentKind {
  return round <= NOTICE_ROUNDS ? "notice" : "true-bill";
}

/** The name a round's document carries: its notice's name, or the true bill's. */
export function documentTitle(round: number): string {
  return round <= NOTICE_ROUNDS ? NOTICE_NAMES[round]! : trueBillName(trueBillNumber(round));
}

/** The label of the round (spec §4 "Round naming"). */
export function documentRoundLabel(round: number): string {
  return roundLabel(round).label ?? `Round ${round}`;
}

/**
 * Who a round's document names: a notice the respondents of the slots open by its round
 * (8 in round 1, 12 in round 2, 16 in round 3, spec §9); a true bill those it bills.
 */
export function respondentsOf(facts: Pick<DocumentFacts, "round" | "respondents" | "bill">): DocumentRespondent[] {
  const sorted = [...facts.respondents].sort((a, b) => a.slot - b.slot);
  if (documentKindOf(facts.round) === "notice") return sorted.filter((r) => r.slot <= slotsOpenIn(facts.round));
  const billed = facts.bill?.billedSlots;
  return billed ? sorted.filter((r) => billed.includes(r.slot)) : sorted;
}

const money = (cents: number | null | undefined) => (cents === null || cents === undefined ? null : formatMoney(cents));
const day = (value: Date | string | null | undefined) => (value ? formatDate(value) : null);

/** The values of every placeholder for a round's document; null where the entry holds nothing yet. */
export function documentValues(facts: DocumentFacts): DocumentValues {
  const named = respondentsOf(facts);
  const bill = facts.bill;
  const isBill = documentKindOf(facts.round) === "true-bill";
  const before = facts.round - 1;
  return {
    title: documentTitle(facts.round),
    round: String(facts.round),
    round_label: documentRoundLabel(facts.round),
    // spec §4 "'Rounds 1 to N' is shown for rounds beyond the first".
    prior_rounds: before === 0 ? "None" : priorRounds(before),
    "claimant.name": facts.claimantName,
    "claimant.address": lines(addressLines(facts.claimantAddress)),
    // Filled in each letter (letterValues): the respondent it goes to.
    "respondent.name": null,
    "respondent.type": null,
    "respondent.address": null,
    "cause.name": facts.cause.name,
    "cause.code": facts.cause.code,
    country: facts.countryCode,
    nol_version: facts.version,
    exhibit: facts.exhibit,
    notice_date: day(facts.noticeDate),
    respondents: named.length > 0 ? named.map((r) => `${r.slot}. ${r.name} (${r.type})`).join("\n") : null,
    respondent_count: String(named.length),
    daily_amount: money(facts.dailyAmountCents),
    mailing_date: day(facts.mailing.date),
    tracking_number: facts.mailing.tracking,
    delivered: facts.mailing.delivered ? "Yes" : "Not yet",
    true_bill_number: isBill ? String(trueBillNumber(facts.round)) : null,
    preparation_date: day(bill?.preparationDate),
    first_preparation_date: day(bill?.firstPreparationDate),
    administrative_judgment: money(bill?.administrativeJudgmentCents),
    first_administrative_judgment: money(bill?.firstAdministrativeJudgmentCents),
    escalation_fee: money(bill?.escalationFeeCents),
    true_bill_total: money(bill?.totalCents),
    first_true_bill_total: money(bill?.firstTotalCents),
    service_list: facts.service?.length ? serviceList(facts.service, facts.mailing) : null,
    delivery_date: day(facts.mailing.deliveredOn),
  };
}

const lines = (parts: string[]) => (parts.length > 0 ? parts.join("\n") : null);

/**
 * The values of each letter a template makes of a round: a letter template (one naming the
 * respondent a letter goes to) one per respondent the document names, in slot order, with that
 * respondent's name, type and address; any other template, or a round naming nobody yet, one.
 */
export function letterValues(facts: DocumentFacts, body: string): DocumentValues[] {
  const values = documentValues(facts);
  const named = respondentsOf(facts);
  if (!isLetterTemplate(body) || named.length === 0) return [values];
  return named.map((r) => ({
    ...values,
    "respondent.name": r.name,
    "respondent.type": r.type,
    "respondent.address": lines(addressLines(r.address)),
  }));
}

/**
 * A proof of service's list: each respondent with the address used, the mailing day, the
 * envelope's tracking number and the delivery; what the records lack is a line to write on.
 */
function serviceList(lines: ServiceLine[], mailing: DocumentFacts["mailing"]): string {
  const blank = "__________";
  const delivered = mailing.delivered ? (day(mailing.deliveredOn) ?? "yes") : "not yet";
  return [...lines]
    .sort((a, b) => a.slot - b.slot)
    .map((r) => {
      const outcome = r.letter
        ? r.letter.returnedOn
          ? `returned to sender ${day(r.letter.returnedOn)}`
          : (day(r.letter.deliveredOn) ?? "not yet")
        : delivered;
      return [
        `${r.slot}. ${r.name} (${r.type})`,
        `    Address: ${r.letter?.address ?? r.address ?? blank}`,
        `    Mailed: ${day(mailing.date) ?? blank} · Tracking number: ${r.tracking ?? blank} · Delivered: ${outcome}`,
        ...(r.letter
          ? [
              `    Sent by USPS Certified Mail with an electronic return receipt${r.letter.returnReceipt ? ", which is kept with this round" : ""}`,
            ]
          : []),
      ].join("\n");
    })
    .join("\n");
}

/** The rounds before a round: the notice rounds by number, then the true bills by name. */
function priorRounds(count: number): string {
  if (count <= NOTICE_ROUNDS) return roundsDoneLabel(count);
  const bills = count - NOTICE_ROUNDS;
  return `${roundsDoneLabel(NOTICE_ROUNDS)}, ${bills === 1 ? trueBillName(1) : `${trueBillName(1)} to ${trueBillName(bills)}`}`;
}

const slug = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60) || "notice";

/** "ts-spring-2026-round-2.pdf", "ts-spring-2026-first-true-bill.pdf": plain ASCII for every browser. */
export function documentFilename(
  facts: Pick<DocumentFacts, "version" | "round"> & { cause: Pick<DocumentFacts["cause"], "code"> },
  document: "notice" | "proof-of-service" = "notice",
): string {
  const name = `${slug(facts.cause.code)}-${slug(facts.version)}-${slug(documentRoundLabel(facts.round))}`;
  return document === "notice" ? `${name}.pdf` : `${name}-${document}.pdf`;
}
