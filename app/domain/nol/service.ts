import type { MailingState } from "../mailing/round-letters";

/**
 * One reading of a round's service, respondent by respondent: the letters the app mailed (the
 * mail house's rows), what the member recorded by hand (a letter mailed, its delivery or return,
 * a respondent left out), and, for a round recorded before either existed, the days and numbers
 * its steps kept. Every document, the timeline, the step pages, the reminders and the round's
 * progress read a round through it (docs/decisions/057-one-reading-of-service.md).
 */

export const SERVICE_RECORD_KINDS = ["mailed", "delivered", "returned", "left_out"] as const;
export type ServiceRecordKind = (typeof SERVICE_RECORD_KINDS)[number];

/** A letter the app mailed to one respondent of the round, as its row keeps it. */
export type AppLetter = {
  id: string;
  /** The mail house's id of the letter, once it answered. */
  letterId: string | null;
  slot: number;
  state: MailingState;
  trackingNumber: string | null;
  mailedAt: Date | null;
  deliveredAt: Date | null;
  returnedAt: Date | null;
  reason: string | null;
  /** The address the letter went to, on one line. */
  address: string | null;
  returnReceipt: boolean;
  createdAt: Date;
};

/** What the member recorded by hand, in the order recorded. */
export type HandRecord = {
  id: number;
  slot: number;
  kind: ServiceRecordKind;
  day: string | null;
  trackingNumber: string | null;
  reason: string | null;
  createdAt: Date;
};

/** A respondent the round is addressed to. */
export type Addressee = { slot: number; name: string; type: string; address: string | null };

/** What the round's steps kept before each respondent had a record: its day, numbers and proof. */
export type TypedRound = {
  mailedOn: string | null;
  /** The numbers typed by slot. */
  tracking: Record<string, string>;
  /** The round's one number, where only that was typed. */
  single: string | null;
  delivered: boolean;
  deliveredOn: string | null;
};

/**
 * Where one envelope to a respondent stands: at the mail house (paid, not yet taken by USPS),
 * mailed, delivered, returned to sender, cancelled before it was mailed, or refused by the mail
 * house.
 */
export type SendingStatus = "sending" | "mailed" | "delivered" | "returned" | "cancelled" | "failed";

export type Sending = {
  by: "app" | "hand";
  status: SendingStatus;
  mailedOn: string | null;
  /** The envelope's tracking number; none for a letter cancelled or refused before it was mailed. */
  tracking: string | null;
  deliveredOn: string | null;
  returnedOn: string | null;
  /** The mail house's words for a return or a refusal. */
  reason: string | null;
  /** The app's letter: its id, the mail house's, the address it went to, whether its return receipt is kept. */
  letter: { id: string; letterId: string | null; address: string | null; returnReceipt: boolean } | null;
};

/**
 * A respondent's service in the round: not sent yet; at the mail house; mailed; served
 * (delivered); returned or cancelled or refused (waiting to be mailed again or left out); or
 * left out of the round by the member, with their reason.
 */
export type RespondentStatus = "not-sent" | SendingStatus | "left-out";

export type RespondentService = Addressee & {
  status: RespondentStatus;
  served: boolean;
  /** Nothing is on its way to this respondent and they were not served or left out. */
  waiting: boolean;
  /** The envelope that stands for the respondent now (the latest), null when none was sent. */
  current: Sending | null;
  /** The envelopes sent before the current one, oldest first. */
  earlier: Sending[];
  /** Why the member left them out of the round. */
  leftOut: string | null;
};

export type RoundServiceState = "delivered" | "mailed" | "sending" | "prepared";

export type RoundService = {
  round: number;
  respondents: RespondentService[];
  state: RoundServiceState;
  /** Every respondent served or left out, and one served at least. */
  complete: boolean;
  /** The first day an envelope of the round went into the mail. */
  mailedOn: string | null;
  /** The last delivery, once the round is complete: the respondents' windows run from it. */
  deliveredOn: string | null;
  /** The numbers of the envelopes standing now, by slot. */
  tracking: { slot: number; number: string }[];
};

/** A calendar day (UTC), as the steps record dates. */
const dayOf = (at: Date | null) => (at ? at.toISOString().slice(0, 10) : null);

const APP_STATUS: Record<MailingState, SendingStatus> = {
  sending: "sending",
  created: "sending",
  mailed: "mailed",
  in_transit: "mailed",
  delivered: "delivered",
  returned_to_sender: "returned",
  cancelled: "cancelled",
  failed: "failed",
};

function appSending(letter: AppLetter): Sending {
  const status = APP_STATUS[letter.state];
  const unmailed = status === "cancelled" || status === "failed" || status === "sending";
  return {
    by: "app",
    status,
    mailedOn: unmailed ? null : dayOf(letter.mailedAt),
    // A cancelled or refused letter was never mailed: its number stands for no envelope.
    tracking: status === "cancelled" || status === "failed" ? null : letter.trackingNumber,
    deliveredOn: status === "delivered" ? dayOf(letter.deliveredAt) : null,
    returnedOn: status === "returned" ? dayOf(letter.returnedAt) : null,
    reason: status === "returned" || status === "failed" ? letter.reason : null,
    letter: { id: letter.id, letterId: letter.letterId, address: letter.address, returnReceipt: letter.returnReceipt },
  };
}

const handSending = (day: string | null, tracking: string | null): Sending => ({
  by: "hand",
  status: "mailed",
  mailedOn: day,
  tracking,
  deliveredOn: null,
  returnedOn: null,
  reason: null,
  letter: null,
});

const WAITING: ReadonlySet<RespondentStatus> = new Set(["not-sent", "returned", "cancelled", "failed"]);
const IN_THE_MAIL: ReadonlySet<SendingStatus> = new Set(["mailed", "delivered", "returned"]);

type Event = { at: Date; order: number; apply: (state: SlotState) => void };
type SlotState = { sendings: Sending[]; leftOut: string | null };

/** One respondent's service: their letters and records in the order they happened. */
function respondentService(addressee: Addressee, letters: AppLetter[], records: HandRecord[]): RespondentService {
  const events: Event[] = [
    ...letters.map((letter) => ({
      at: letter.createdAt,
      order: 0,
      apply: (s: SlotState) => {
        s.sendings.push(appSending(letter));
        s.leftOut = null;
      },
    })),
    ...records.map((record) => ({
      at: record.createdAt,
      order: record.id,
      apply: (s: SlotState) => applyRecord(s, record),
    })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime() || a.order - b.order);
  const state: SlotState = { sendings: [], leftOut: null };
  for (const event of events) event.apply(state);
  const current = state.sendings.at(-1) ?? null;
  const status: RespondentStatus = state.leftOut !== null ? "left-out" : (current?.status ?? "not-sent");
  return {
    ...addressee,
    status,
    served: status === "delivered",
    waiting: WAITING.has(status),
    current,
    earlier: state.sendings.slice(0, -1),
    leftOut: state.leftOut,
  };
}

/** A hand record on the respondent's envelopes: a new one mailed, or the delivery or return of the last one mailed by hand. */
function applyRecord(state: SlotState, record: HandRecord): void {
  if (record.kind === "mailed") {
    state.sendings.push(handSending(record.day, record.trackingNumber));
    state.leftOut = null;
    return;
  }
  if (record.kind === "left_out") {
    state.leftOut = record.reason ?? "";
    return;
  }
  const last = state.sendings.at(-1);
  if (!last || last.by !== "hand" || last.status !== "mailed") return;
  state.sendings[state.sendings.length - 1] =
    record.kind === "delivered"
      ? { ...last, status: "delivered", deliveredOn: record.day }
      : { ...last, status: "returned", returnedOn: record.day, reason: record.reason };
}

/**
 * A round recorded before its respondents had records of their own: what its mailing and proof
 * steps kept, read as one envelope to each respondent without an app letter (the number typed
 * for the slot, or the round's one number when no letter went from the app).
 */
export function typedRecords(input: {
  addressed: readonly Addressee[];
  letters: readonly AppLetter[];
  typed: TypedRound;
}): HandRecord[] {
  const { typed, letters } = input;
  if (!typed.mailedOn) return [];
  const lettered = new Set(letters.map((letter) => letter.slot));
  const at = new Date(0);
  let id = -2 * input.addressed.length;
  return input.addressed.flatMap((a) => {
    if (lettered.has(a.slot)) return [];
    const tracking = typed.tracking[String(a.slot)] ?? (letters.length === 0 ? typed.single : null);
    if (letters.length > 0 && !tracking) return [];
    const mailed: HandRecord = {
      id: id++,
      slot: a.slot,
      kind: "mailed",
      day: typed.mailedOn,
      trackingNumber: tracking,
      reason: null,
      createdAt: at,
    };
    const delivered: HandRecord = { ...mailed, id: id++, kind: "delivered", day: typed.deliveredOn };
    return typed.delivered ? [mailed, delivered] : [mailed];
  });
}

/**
 * The round's service. The respondents it is addressed to (a notice's named respondents of the
 * slots open by its round, a true bill's billed ones) each read from their letters and records;
 * a round that names nobody reads as its steps typed it.
 */
export function roundService(input: {
  round: number;
  addressed: readonly Addressee[];
  letters: readonly AppLetter[];
  records: readonly HandRecord[];
  typed: TypedRound;
}): RoundService {
  const { round, letters, typed } = input;
  const addressed = [...input.addressed].sort((a, b) => a.slot - b.slot);
  if (addressed.length === 0) return typedOnly(round, typed);
  const records = input.records.length > 0 ? input.records : typedRecords({ addressed, letters, typed });
  const respondents = addressed.map((a) =>
    respondentService(
      a,
      letters.filter((letter) => letter.slot === a.slot),
      records.filter((record) => record.slot === a.slot),
    ),
  );
  const served = respondents.filter((r) => r.served);
  const complete = served.length > 0 && respondents.every((r) => r.served || r.status === "left-out");
  const mailedDays = respondents
    .flatMap((r) => [...r.earlier, ...(r.current ? [r.current] : [])])
    .filter((s) => IN_THE_MAIL.has(s.status) && s.mailedOn)
    .map((s) => s.mailedOn!)
    .sort();
  const mailedOn = mailedDays[0] ?? null;
  const deliveredOn = complete
    ? (served
        .map((r) => r.current!.deliveredOn)
        .filter((d): d is string => Boolean(d))
        .sort()
        .at(-1) ?? null)
    : null;
  return {
    round,
    respondents,
    complete,
    state: complete
      ? "delivered"
      : mailedOn
        ? "mailed"
        : respondents.some((r) => r.status === "sending")
          ? "sending"
          : "prepared",
    mailedOn,
    deliveredOn,
    tracking: respondents.flatMap((r) =>
      r.current?.tracking && r.status !== "left-out" ? [{ slot: r.slot, number: r.current.tracking }] : [],
    ),
  };
}

/** A round that names no respondent: its one mailing day, number and proof, as typed. */
function typedOnly(round: number, typed: TypedRound): RoundService {
  const numbers = Object.entries(typed.tracking)
    .filter(([, n]) => n)
    .map(([slot, number]) => ({ slot: Number(slot), number }))
    .sort((a, b) => a.slot - b.slot);
  return {
    round,
    respondents: [],
    complete: typed.delivered,
    state: typed.delivered ? "delivered" : typed.mailedOn ? "mailed" : "prepared",
    mailedOn: typed.mailedOn,
    deliveredOn: typed.delivered ? typed.deliveredOn : null,
    tracking: numbers.length > 0 ? numbers : typed.single ? [{ slot: 0, number: typed.single }] : [],
  };
}

/** The respondents nothing is on its way to: to mail again (from the app or by hand) or to leave out. */
export const waitingRespondents = (service: RoundService) => service.respondents.filter((r) => r.waiting);

/** The respondents mailed by hand whose delivery is not recorded yet: what the proof step records. */
export const awaitingProof = (service: RoundService) =>
  service.respondents.filter((r) => r.status === "mailed" && r.current?.by === "hand");

/** The respondents whose letter from the app is at the mail house or on its way. */
export const onTheirWay = (service: RoundService) =>
  service.respondents.filter((r) => (r.status === "mailed" || r.status === "sending") && r.current?.by === "app");

/** What a respondent's line says of them, in words: "Delivered on …", "Cancelled before it was mailed". */
export function statusWords(r: RespondentService, day: (d: string) => string): string {
  const s = r.current;
  switch (r.status) {
    case "not-sent":
      return "Not mailed yet";
    case "left-out":
      return `Left out of this round${r.leftOut ? `: ${r.leftOut}` : ""}`;
    case "sending":
      return "At the mail house, to be mailed";
    case "mailed":
      return s?.mailedOn ? `Mailed on ${day(s.mailedOn)}` : "Mailed";
    case "delivered":
      return s?.deliveredOn ? `Delivered on ${day(s.deliveredOn)}` : "Delivered";
    case "returned":
      return `Returned to sender${s?.returnedOn ? ` on ${day(s.returnedOn)}` : ""}${s?.reason ? ` (${s.reason})` : ""}`;
    case "cancelled":
      return "Cancelled before it was mailed";
    case "failed":
      return `Not sent: the mail house refused it${s?.reason ? ` (${s.reason})` : ""}`;
  }
}

/**
 * A line for the version's "Continue" button while a round is being served: its letters at the
 * mail house or on their way, or respondents still to serve. Null when there is nothing to say.
 */
export function serviceNote(service: RoundService): string | null {
  if (service.respondents.length === 0 || service.complete) return null;
  const waiting = waitingRespondents(service);
  const atHouse = service.respondents.filter((r) => r.status === "sending");
  const going = service.respondents.filter((r) => r.status === "mailed");
  const parts: string[] = [];
  if (atHouse.length > 0)
    parts.push(
      atHouse.length === service.respondents.length
        ? "your letters are at the mail house, on their way"
        : `${count(atHouse.length, "letter")} at the mail house`,
    );
  if (going.length > 0) parts.push(`${count(going.length, "letter")} in the mail`);
  if (waiting.length > 0) parts.push(`${count(waiting.length, "respondent")} still to serve`);
  if (parts.length === 0) return null;
  const text = parts.join(", ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
