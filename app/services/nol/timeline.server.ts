import type { AppConfig } from "~/config/config.server";
import { NOTICE_ROUNDS } from "~/domain/nol/rounds";
import { formatDate } from "~/lib/format";
import {
  dayOf,
  timelineOf,
  trackingNumbers,
  type ResponseWindows,
  type RoundRecord,
  type Timeline,
} from "~/domain/nol/timeline";
import type { LetterView } from "../mailings/view.server";
import type { EntryRow, VersionState } from "./entries.server";

/** A version's timeline (decision 034): what its entries recorded, read as rounds. */

/**
 * A round's tracking numbers by the respondent's slot, as its mailing step kept them: in the
 * creator entry for a notice (`mail.Tracking{n}`), in the true bill's own data for a bill.
 */
export function keptTracking(entry: Pick<EntryRow, "mail" | "data">, round: number): Record<string, string> {
  const kept =
    round <= NOTICE_ROUNDS ? entry.mail?.[`Tracking${round}`] : (entry.data as { tracking?: unknown }).tracking;
  return kept && typeof kept === "object" && !Array.isArray(kept) ? (kept as Record<string, string>) : {};
}

/** Each round's record: the creator entry's three notices, then each true bill. */
export function roundRecordsOf(state: Pick<VersionState, "creator" | "bills">): RoundRecord[] {
  const records: RoundRecord[] = [];
  const { creator } = state;
  if (creator) {
    for (let round = 1; round <= NOTICE_ROUNDS; round += 1) {
      const i = round - 1;
      if (!creator.nolTracking[i]) continue;
      records.push({
        round,
        mailedOn: creator.nolMailingDate[i] ?? null,
        delivered: creator.nolProofOfDelivery[i] ?? false,
        deliveredOn: creator.nolDeliveryDate[i] ?? null,
        tracking: trackingNumbers(keptTracking(creator, round), creator.mail?.[`Track${round}`]),
      });
    }
  }
  for (const bill of state.bills) {
    if (!bill.tbValue) continue;
    records.push({
      round: NOTICE_ROUNDS + bill.tbValue,
      mailedOn: bill.billMailingDate,
      delivered: bill.billProofOfDelivery ?? false,
      deliveredOn: bill.billDeliveryDate,
      tracking: trackingNumbers(keptTracking(bill, NOTICE_ROUNDS + bill.tbValue), bill.billTracking),
    });
  }
  return records;
}

/** The windows of a cause: its own where it sets them, the configuration's elsewhere. */
export function windowsOf(config: Pick<AppConfig, "responseWindows">, own: Partial<ResponseWindows>): ResponseWindows {
  return { ...config.responseWindows, ...own };
}

/** The version's timeline today. */
export function versionTimeline(
  config: Pick<AppConfig, "responseWindows">,
  causeWindows: Partial<ResponseWindows>,
  state: Pick<VersionState, "creator" | "bills" | "step">,
  now: Date,
): Timeline {
  return timelineOf({
    records: roundRecordsOf(state),
    step: state.step,
    windows: windowsOf(config, causeWindows),
    today: dayOf(now),
  });
}

/** The addresses of a version's round documents, but for the round (`&round=N`): its notice and its proof of service. */
export type RoundDocumentBases = { notice: string; proof: string; receipt: (letterId: string) => string };

/** A letter mailed from the app, as a round of the timeline lists it. */
export type TimelineLetter = Pick<
  LetterView,
  "id" | "round" | "to" | "state" | "reason" | "returnedOn" | "hasReturnReceipt"
>;

export function roundDocumentBases(causeBase: string, version: string, owner: string | null): RoundDocumentBases {
  const query = new URLSearchParams({ version, ...(owner ? { username: owner } : {}) });
  return {
    notice: `${causeBase}/notice.pdf?${query}`,
    proof: `${causeBase}/proof-of-service.pdf?${query}`,
    receipt: (letterId) => `${causeBase}/return-receipt.pdf?${query}&${new URLSearchParams({ letter: letterId })}`,
  };
}

/**
 * The timeline with its days written out for the page ("Mar 5, 2026"): the page needs no date
 * formats of its own. A written round links to its notice, a mailed one to its proof of service.
 */
export function timelineView(timeline: Timeline, bases: RoundDocumentBases, letters: readonly TimelineLetter[] = []) {
  const day = (value: string | null) => (value ? formatDate(value) : null);
  return {
    ...timeline,
    todayShown: formatDate(timeline.today),
    rows: timeline.rows.map((row) => ({
      ...row,
      mailedShown: day(row.mailedOn),
      deliveredShown: day(row.deliveredOn),
      respondByShown: day(row.respondBy),
      noticeHref: row.state === "next" ? null : `${bases.notice}&round=${row.round}`,
      proofHref: row.mailedOn ? `${bases.proof}&round=${row.round}` : null,
      // The round's letters mailed from the app: a returned one says so, with why; a delivered one has its receipt.
      letters: letters
        .filter((letter) => letter.round === row.round)
        .map((letter) => ({
          id: letter.id,
          to: letter.to,
          state: letter.state,
          reason: letter.state === "returned_to_sender" ? letter.reason : null,
          returnedShown: day(letter.returnedOn),
          receiptHref: letter.hasReturnReceipt ? bases.receipt(letter.id) : null,
        })),
    })),
    next: timeline.next ? { ...timeline.next, availableShown: day(timeline.next.availableOn) } : null,
  };
}

export type TimelineView = ReturnType<typeof timelineView>;
