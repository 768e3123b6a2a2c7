import type { AppConfig } from "~/config/config.server";
import type { AppServices } from "~/context";
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
import { statusWords, type RespondentService, type RoundService } from "~/domain/nol/service";
import type { EntryRow, VersionState } from "./entries.server";
import { versionService } from "./service.server";

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

/** A round's record as the reading of its service gives it. */
function recordOfService(service: RoundService): RoundRecord {
  return {
    round: service.round,
    mailedOn: service.mailedOn,
    delivered: service.complete,
    deliveredOn: service.deliveredOn,
    tracking: service.tracking.map((t) => t.number),
    state: service.state,
  };
}

/**
 * Each round's record: the creator entry's three notices, then each true bill; a round whose
 * service was read (versionService), as that reading gives it.
 */
export function roundRecordsOf(
  state: Pick<VersionState, "creator" | "bills">,
  services: ReadonlyMap<number, RoundService> = new Map(),
): RoundRecord[] {
  return typedRecordsOf(state).map((record) => {
    const service = services.get(record.round);
    return service ? recordOfService(service) : record;
  });
}

function typedRecordsOf(state: Pick<VersionState, "creator" | "bills">): RoundRecord[] {
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
  services?: ReadonlyMap<number, RoundService>,
): Timeline {
  return timelineOf({
    records: roundRecordsOf(state, services),
    step: state.step,
    windows: windowsOf(config, causeWindows),
    today: dayOf(now),
  });
}

/** The addresses of a version's round documents, but for the round (`&round=N`): its notice and its proof of service. */
export type RoundDocumentBases = { notice: string; proof: string; receipt: (letterId: string) => string };

/** A respondent of a round as the pages list them: their envelope in words, its number, its return receipt. */
export function respondentLine(r: RespondentService, bases: Pick<RoundDocumentBases, "receipt"> | null) {
  return {
    slot: r.slot,
    name: r.name,
    status: r.status,
    words: statusWords(r, formatDate),
    by: r.current?.by ?? null,
    tracking: r.status === "left-out" ? null : (r.current?.tracking ?? null),
    receiptHref: bases && r.current?.letter?.returnReceipt ? bases.receipt(r.current.letter.id) : null,
  };
}

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
export function timelineView(
  timeline: Timeline,
  bases: RoundDocumentBases,
  services: ReadonlyMap<number, RoundService> = new Map(),
) {
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
      // Each respondent of the round: where their envelope stands, its number, its receipt.
      respondents: (services.get(row.round)?.respondents ?? []).map((r) => respondentLine(r, bases)),
    })),
    next: timeline.next ? { ...timeline.next, availableShown: day(timeline.next.availableOn) } : null,
  };
}

export type TimelineView = ReturnType<typeof timelineView>;

/**
 * A version's timeline for its pages, its rounds read through the reading of their service
 * (each respondent's envelope), and the reading itself for what else the page states.
 */
export async function versionTimelineView(
  services: Pick<AppServices, "db" | "config">,
  input: {
    windows: Partial<ResponseWindows>;
    state: Pick<VersionState, "creator" | "bills" | "step">;
    bases: RoundDocumentBases;
    now?: Date;
  },
) {
  const read = await versionService(services.db, input.state);
  const timeline = versionTimeline(services.config, input.windows, input.state, input.now ?? new Date(), read);
  return { view: timelineView(timeline, input.bases, read), service: read };
}
