import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentValues, letterValues, roundMailingOf, type DocumentFacts } from "../documents/document-data";
import { SAMPLE_CAUSE, sampleFacts } from "../documents/samples";
import type { MailingState } from "../mailing/round-letters";
import {
  roundService,
  typedRecords,
  waitingRespondents,
  type Addressee,
  type AppLetter,
  type HandRecord,
} from "./service";
import { timelineOf } from "./timeline";

/**
 * The reading of a round's service against random histories of its envelopes: for 2 to 12
 * respondents, a letter from the app (paid, then cancelled, refused, mailed, delivered or
 * returned, then perhaps a second from the app) and the member's hand records after it (mailed again with a number of its own,
 * delivered, returned, left out). A plain model of the same history says what each respondent's
 * envelope is; the reading, the letters, the proof of service and the timeline must agree.
 */

const START = Date.parse("2026-03-01T12:00:00Z");
const DAY = 86_400_000;
const dayAt = (n: number) => new Date(START + n * DAY).toISOString().slice(0, 10);

type AppPath = "none" | "sending" | "created" | "cancelled" | "failed" | "mailed" | "delivered" | "returned";
type HandStep = { kind: "mailed" | "delivered" | "returned" | "left_out" };
/**
 * A respondent's history: the app's letter, a second one from the app when the first was
 * cancelled or came back (mailed again), then the member's hand records.
 */
type History = { app: AppPath; again: AppPath; hand: HandStep[] };

const APP_PATHS: AppPath[] = ["none", "sending", "created", "cancelled", "failed", "mailed", "delivered", "returned"];

const history: fc.Arbitrary<History> = fc.record({
  app: fc.constantFrom(...APP_PATHS),
  again: fc.constantFrom(...APP_PATHS),
  hand: fc.array(
    fc.record({ kind: fc.constantFrom<HandStep["kind"]>("mailed", "delivered", "returned", "left_out") }),
    { maxLength: 5 },
  ),
});

/** An envelope as the model follows it. */
type Envelope = {
  tracking: string | null;
  mailedOn: string | null;
  end: "open" | "delivered" | "returned" | "void";
  deliveredOn: string | null;
};

/** The app's letters of a history: the second only after a first cancelled or returned. */
const appPaths = (h: History): Exclude<AppPath, "none">[] =>
  h.app === "none"
    ? []
    : (h.app === "cancelled" || h.app === "returned") && h.again !== "none"
      ? [h.app, h.again]
      : [h.app];

/** The app's n-th envelope to the slot: mailed the day after it was made, delivered two days on. */
const appTracking = (slot: number, n: number) => `9407${String(slot).padStart(2, "0")}0000000000000000${n}`;
const appStart = (n: number) => (n - 1) * 2;

/** What the model says of a respondent: their envelopes and whether they were left out after the last. */
function model(slot: number, h: History) {
  const envelopes: Envelope[] = [];
  let leftOut = false;
  for (const [i, app] of appPaths(h).entries()) {
    const start = appStart(i + 1);
    const mailed = app === "mailed" || app === "delivered" || app === "returned";
    envelopes.push({
      tracking: app === "cancelled" || app === "failed" || app === "sending" ? null : appTracking(slot, i + 1),
      mailedOn: mailed ? dayAt(start + 1) : null,
      end:
        app === "cancelled" || app === "failed"
          ? "void"
          : app === "delivered"
            ? "delivered"
            : app === "returned"
              ? "returned"
              : "open",
      deliveredOn: app === "delivered" ? dayAt(start + 3) : null,
    });
  }
  let clock = 5;
  let n = 0;
  for (const step of h.hand) {
    clock += 1;
    const last = envelopes.at(-1);
    if (step.kind === "mailed") {
      n += 1;
      envelopes.push({
        tracking: `RR${String(slot).padStart(2, "0")}${String(n).padStart(5, "0")}0US`,
        mailedOn: dayAt(clock),
        end: "open",
        deliveredOn: null,
      });
      leftOut = false;
    } else if (step.kind === "left_out") leftOut = true;
    // A hand delivery or return is of the last envelope mailed by hand, still on its way.
    else if (last && last.end === "open" && last.mailedOn && last.tracking?.startsWith("RR")) {
      if (step.kind === "delivered") Object.assign(last, { end: "delivered", deliveredOn: dayAt(clock) });
      else last.end = "returned";
    }
  }
  const current = envelopes.at(-1) ?? null;
  return { envelopes, current, leftOut, served: !leftOut && current?.end === "delivered" };
}

const APP_STATE: Record<Exclude<AppPath, "none">, MailingState> = {
  sending: "sending",
  created: "created",
  cancelled: "cancelled",
  failed: "failed",
  mailed: "in_transit",
  delivered: "delivered",
  returned: "returned_to_sender",
};

/** The same history as the app keeps it: the mail house's row and the member's records. */
function recordsOf(slot: number, h: History, ids: { next: number }): { letters: AppLetter[]; records: HandRecord[] } {
  const letters: AppLetter[] = appPaths(h).map((app, i) => {
    const start = START + appStart(i + 1) * DAY;
    const mailed = app === "mailed" || app === "delivered" || app === "returned";
    return {
      id: `m${slot}-${i + 1}`,
      letterId: `ltr_${slot}_${i + 1}`,
      slot,
      state: APP_STATE[app],
      // A letter cancelled before print still had its number from the mail house.
      trackingNumber: app === "sending" ? null : appTracking(slot, i + 1),
      mailedAt: mailed ? new Date(start + DAY + 3_600_000) : null,
      deliveredAt: app === "delivered" ? new Date(start + 3 * DAY + 3_600_000) : null,
      returnedAt: app === "returned" ? new Date(start + 4 * DAY) : null,
      reason: app === "returned" ? "Unclaimed" : null,
      address: `${slot} Main St, Springfield, IL 62701`,
      returnReceipt: app === "delivered",
      createdAt: new Date(start),
    };
  });
  let clock = 5;
  let n = 0;
  const records = h.hand.map((step): HandRecord => {
    clock += 1;
    if (step.kind === "mailed") n += 1;
    return {
      id: ids.next++,
      slot,
      kind: step.kind,
      day: step.kind === "left_out" ? null : dayAt(clock),
      trackingNumber:
        step.kind === "mailed" ? `RR${String(slot).padStart(2, "0")}${String(n).padStart(5, "0")}0US` : null,
      reason: step.kind === "left_out" ? "No known address" : step.kind === "returned" ? null : null,
      createdAt: new Date(START + clock * DAY),
    };
  });
  return { letters, records };
}

const LETTER =
  "@to {{respondent.name}}\nMailed on: {{mailing_date}}\nTracking number: {{tracking_number}}\nDelivered: {{delivered}}";

describe("the one reading of a round's service", () => {
  it("agrees with the records for every respondent, in the reading, the letters, the proof of service and the timeline", () => {
    fc.assert(
      fc.property(fc.array(history, { minLength: 2, maxLength: 12 }), (histories) => {
        const addressed: Addressee[] = histories.map((_, i) => ({
          slot: i + 1,
          name: `Respondent ${i + 1}`,
          type: "Individual",
          address: null,
        }));
        const ids = { next: 1 };
        const kept = histories.map((h, i) => recordsOf(i + 1, h, ids));
        // Round 3: every slot up to 16 is open, so 12 respondents are all addressed.
        const service = roundService({
          round: 3,
          addressed,
          letters: kept.flatMap((k) => k.letters),
          records: kept.flatMap((k) => k.records),
          typed: { mailedOn: null, tracking: {}, single: null, delivered: false, deliveredOn: null },
        });
        const models = histories.map((h, i) => model(i + 1, h));

        // Each respondent, as the model says.
        service.respondents.forEach((r, i) => {
          const m = models[i]!;
          expect(r.served).toBe(m.served);
          expect(r.status === "left-out").toBe(m.leftOut);
          const live = m.current && m.current.end !== "void" ? m.current.tracking : null;
          expect(r.current?.tracking ?? null).toBe(live);
          if (m.current?.end === "void") expect(r.served).toBe(false);
          if (m.current?.end === "returned" && !m.leftOut) expect(r.waiting).toBe(true);
        });
        const complete = models.some((m) => m.served) && models.every((m) => m.served || m.leftOut);
        expect(service.complete).toBe(complete);
        const mailedDays = models.flatMap((m) => m.envelopes.flatMap((e) => (e.mailedOn ? [e.mailedOn] : []))).sort();
        expect(service.mailedOn).toBe(mailedDays[0] ?? null);
        expect(waitingRespondents(service).every((r) => !r.served)).toBe(true);

        // Each letter states its own envelope, and no one else's.
        const facts: DocumentFacts = {
          ...sampleFacts({ kind: "notice", round: 3, cause: SAMPLE_CAUSE }),
          respondents: addressed,
          mailing: roundMailingOf(service),
          served: service,
        };
        const letters = letterValues(facts, LETTER);
        expect(letters).toHaveLength(addressed.length);
        letters.forEach((values, i) => {
          const m = models[i]!;
          const inTheMail = m.current && m.current.end !== "void" && m.current.mailedOn ? m.current : null;
          expect(values["respondent.name"]).toBe(`Respondent ${i + 1}`);
          expect(values.tracking_number).toBe(inTheMail?.tracking ?? null);
          expect(values.delivered).toBe(m.served ? "Yes" : "Not yet");
          // Another respondent's number is never on this letter.
          for (const [j, other] of models.entries())
            if (j !== i && other.current?.tracking) expect(values.tracking_number).not.toBe(other.current.tracking);
        });

        // The proof of service: each respondent's own line, never a void or returned envelope called delivered.
        const list = documentValues(facts).service_list!;
        const blocks = list.split(/\n(?=\d+\. )/);
        blocks.forEach((block, i) => {
          const m = models[i]!;
          expect(block.startsWith(`${i + 1}. Respondent ${i + 1}`)).toBe(true);
          expect(block.includes("Not served")).toBe(!m.served);
          if (m.current?.tracking && m.current.end !== "void") expect(block).toContain(m.current.tracking);
        });
        expect(documentValues(facts).delivered).toBe(complete ? "Yes" : "Not yet");

        // The timeline: delivered only when every respondent was served or left out.
        const timeline = timelineOf({
          records: [
            {
              round: 3,
              mailedOn: service.mailedOn,
              delivered: service.complete,
              deliveredOn: service.deliveredOn,
              tracking: service.tracking.map((t) => t.number),
              state: service.state,
            },
          ],
          step: { kind: "proof", round: 3 },
          windows: { notice: 30, fault: 30, default: 30, "true-bill": 30 },
          today: "2026-12-31",
        });
        expect(timeline.rows[0]!.state === "delivered").toBe(complete);
      }),
      { numRuns: 300 },
    );
  });

  it("reads a round recorded before each respondent had records as its steps typed it", () => {
    const addressed = [1, 2, 3].map((slot) => ({ slot, name: `R${slot}`, type: "Agency", address: null }));
    const typed = {
      mailedOn: "2026-03-02",
      tracking: { "1": "RR111111111US", "3": "RR333333333US" },
      single: "RR111111111US",
      delivered: true,
      deliveredOn: "2026-03-06",
    };
    const service = roundService({ round: 1, addressed, letters: [], records: [], typed });
    expect(service.respondents.map((r) => [r.slot, r.current?.tracking, r.served])).toEqual([
      [1, "RR111111111US", true],
      // The round's one number, where the slot had none of its own.
      [2, "RR111111111US", true],
      [3, "RR333333333US", true],
    ]);
    expect(service.complete).toBe(true);
    expect(service.deliveredOn).toBe("2026-03-06");
    // Made into records once the member records more, it reads the same.
    const records = typedRecords({ addressed, letters: [], typed }).map((r, i) => ({
      ...r,
      id: i + 1,
      createdAt: new Date(START + i),
    }));
    const again = roundService({ round: 1, addressed, letters: [], records, typed });
    expect(again.respondents.map((r) => r.current?.tracking)).toEqual(
      service.respondents.map((r) => r.current?.tracking),
    );
    expect(again.complete).toBe(true);
  });

  it("holds a round whose letters are at the mail house as sending, and one cancelled as waiting", () => {
    const addressed = [1, 2].map((slot) => ({ slot, name: `R${slot}`, type: "Agency", address: null }));
    const letter = (slot: number, state: MailingState): AppLetter => ({
      id: `m${slot}`,
      letterId: `ltr_${slot}`,
      slot,
      state,
      trackingNumber: `940700000000000000000${slot}`,
      mailedAt: null,
      deliveredAt: null,
      returnedAt: null,
      reason: null,
      address: null,
      returnReceipt: false,
      createdAt: new Date(START),
    });
    const typed = { mailedOn: null, tracking: {}, single: null, delivered: false, deliveredOn: null };
    const sending = roundService({
      round: 1,
      addressed,
      letters: [letter(1, "created"), letter(2, "created")],
      records: [],
      typed,
    });
    expect(sending.state).toBe("sending");
    expect(waitingRespondents(sending)).toEqual([]);
    const cancelled = roundService({
      round: 1,
      addressed,
      letters: [letter(1, "created"), letter(2, "cancelled")],
      records: [],
      typed,
    });
    expect(waitingRespondents(cancelled).map((r) => r.slot)).toEqual([2]);
    expect(cancelled.tracking.map((t) => t.slot)).toEqual([1]);
  });
});
