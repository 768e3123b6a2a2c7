import { formatDate, formatMoney } from "~/lib/format";
import { slotsOpenIn, type RespondentAddress, type SlotRespondent } from "../nol/billing";
import { NOTICE_ROUNDS, roundLabel, roundsDoneLabel, trueBillName, trueBillNumber } from "../nol/rounds";
import type { RoundService, Sending } from "../nol/service";
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
  /**
   * The reading of the round's service, respondent by respondent (domain/nol/service.ts): each
   * letter's own mailing day, tracking number and delivery, and a proof of service's list.
   * Null or missing: the round as its one mailing states it.
   */
  served?: RoundService | null;
  /** The member's electronic signature of the round's notice, printed where the text marks it; null or missing: a line to sign by hand. */
  signature?: DocumentSignature | null;
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

/** A signature as a document prints it (docs/decisions/058). */
export type DocumentSignature = {
  method: "drawn" | "typed";
  /** The signer's name as typed. */
  name: string;
  /** A drawn signature's PNG, base64; null for a typed one. */
  imagePng: string | null;
  signedAt: Date | string;
  /** The signature record's id, printed beside it so the record can be found. */
  recordId: string;
  /** The member's choice for the PDF they download: signed (true) or a line to sign by hand (false). Letters the app mails are always signed. */
  onDownload: boolean;
};

/** A respondent a document names, with the mailing address the records keep (null or missing: none given). */
export type DocumentRespondent = SlotRespondent & { address?: RespondentAddress | string | null };

/** A round's one mailing as the reading of its service states it: its first day, its first number, whether every respondent was served. */
export function roundMailingOf(served: RoundService): DocumentFacts["mailing"] {
  return {
    date: served.mailedOn,
    tracking: served.tracking[0]?.number ?? null,
    delivered: served.complete,
    deliveredOn: served.deliveredOn,
  };
}

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
    tracking_number: roundNumbers(facts),
    delivered: facts.mailing.delivered ? "Yes" : "Not yet",
    true_bill_number: isBill ? String(trueBillNumber(facts.round)) : null,
    preparation_date: day(bill?.preparationDate),
    first_preparation_date: day(bill?.firstPreparationDate),
    administrative_judgment: money(bill?.administrativeJudgmentCents),
    first_administrative_judgment: money(bill?.firstAdministrativeJudgmentCents),
    escalation_fee: money(bill?.escalationFeeCents),
    true_bill_total: money(bill?.totalCents),
    first_true_bill_total: money(bill?.firstTotalCents),
    service_list: facts.served?.respondents.length ? serviceList(facts.served) : null,
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
    ...envelopeValues(facts, r.slot),
  }));
}

/**
 * What one letter states of its own envelope, from the reading of the round's service: the day
 * it was mailed, its tracking number, its delivery. An envelope cancelled or refused before it
 * was mailed, or one at the mail house, states none yet. A round without the reading: its one
 * mailing.
 */
function envelopeValues(facts: DocumentFacts, slot: number): Partial<DocumentValues> {
  const r = facts.served?.respondents.find((x) => x.slot === slot);
  if (!r) return {};
  const s = r.current;
  const inTheMail = s !== null && (s.status === "mailed" || s.status === "delivered" || s.status === "returned");
  return {
    mailing_date: inTheMail ? day(s.mailedOn) : null,
    tracking_number: inTheMail ? s.tracking : null,
    delivered: r.served ? "Yes" : "Not yet",
    delivery_date: r.served ? day(s?.deliveredOn) : null,
  };
}

/** A document that is no letter: each envelope's number by its respondent, or the round's one number. */
function roundNumbers(facts: DocumentFacts): string | null {
  const numbers = facts.served?.tracking;
  if (!numbers || numbers.length === 0) return facts.mailing.tracking;
  if (numbers.length === 1) return numbers[0]!.number;
  return numbers.map((n) => `${n.slot}. ${n.number}`).join(", ");
}

/**
 * A proof of service's list, from the reading of the round's service: each respondent with
 * the address used, the day their envelope was mailed, its own tracking number and what became
 * of it; the envelopes sent before it; and, for a respondent not served, why. What the records
 * lack is a line to write on.
 */
function serviceList(service: RoundService): string {
  const blank = "__________";
  return service.respondents
    .map((r) => {
      const s = r.current;
      const head = [`${r.slot}. ${r.name} (${r.type})`, `    Address: ${s?.letter?.address ?? r.address ?? blank}`];
      const earlier = r.earlier.map((e) => `    Before: ${sendingLine(e, blank)}`);
      if (r.status === "left-out") {
        const last = s ? [`    ${sendingLine(s, blank)}`] : [];
        const why = `    Not served in this round: left out${r.leftOut ? ` (${r.leftOut})` : ""}`;
        return [...head, ...earlier, ...last, why].join("\n");
      }
      if (!s) return [...head, "    Not served: not mailed"].join("\n");
      const line = `    ${sendingLine(s, blank)}`;
      const how =
        s.by === "app" && s.status !== "cancelled" && s.status !== "failed"
          ? [
              `    Sent by USPS Certified Mail with an electronic return receipt${s.letter?.returnReceipt ? ", which is kept with this round" : ""}`,
            ]
          : [];
      const notServed = r.served ? [] : [`    Not served: ${NOT_SERVED[r.status] ?? "not delivered yet"}`];
      return [...head, ...earlier, line, ...how, ...notServed].join("\n");
    })
    .join("\n");
}

const NOT_SERVED: Partial<Record<RoundService["respondents"][number]["status"], string>> = {
  sending: "the letter is at the mail house, not yet mailed",
  mailed: "delivery not recorded yet",
  returned: "the envelope was returned to sender",
  cancelled: "the letter was cancelled before it was mailed",
  failed: "the mail house did not send the letter",
};

/** One envelope on a line: its day, its number, what became of it. */
function sendingLine(s: Sending, blank: string): string {
  if (s.status === "cancelled") return "Letter cancelled before it was mailed";
  if (s.status === "failed") return `Letter not sent by the mail house${s.reason ? ` (${s.reason})` : ""}`;
  if (s.status === "sending")
    return `Letter at the mail house, not yet mailed${s.tracking ? ` · Tracking number: ${s.tracking}` : ""}`;
  const outcome =
    s.status === "delivered"
      ? (day(s.deliveredOn) ?? "yes")
      : s.status === "returned"
        ? `returned to sender${s.returnedOn ? ` ${day(s.returnedOn)}` : ""}${s.reason ? ` (${s.reason})` : ""}`
        : "not yet";
  return `Mailed: ${day(s.mailedOn) ?? blank}${s.by === "hand" ? " (by hand)" : ""} · Tracking number: ${s.tracking ?? blank} · Delivered: ${outcome}`;
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
