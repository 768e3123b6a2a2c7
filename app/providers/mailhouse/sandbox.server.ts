import { randomBytes, randomInt } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { Database } from "~/db/client.server";
import { sandboxObjects } from "~/db/schema";
import { postalAddressSchema, postalLines, sameAddress, type PostalAddress } from "~/domain/mailing/address";
import { quoteMailing } from "~/domain/mailing/quote";
import { CANCEL_REFUSALS, cancelCheck, trackOf, type LetterState } from "~/domain/mailing/tracking";
import { readLockedObject, readObject, sandboxEventFeed, writeObject, type SandboxTx } from "../sandbox-objects.server";
import { InvalidMailWebhook, MailRefused, type MailedLetter, type MailEvent, type SandboxMailHouse } from "./types";

/**
 * The built-in mail house: no account, no network, no paper. It keeps its letters in
 * `sandbox_objects` as Lob keeps them on its side, "prints" each (keeps its PDF), gives it a
 * USPS-format Certified Mail tracking number, and moves it along its schedule by its clock:
 * mailed a day after its send date, in transit the day after, delivered two days later. Each
 * step writes its event, which the app takes with `undeliveredEvents` and `markDelivered` as it
 * takes the sandbox notary's.
 *
 * Addresses that behave otherwise, for trying the unhappy paths:
 * - a street line containing "UNDELIVERABLE" fails verification (nothing matches);
 * - one containing "MISSING UNIT" verifies as deliverable to the building, a unit missing;
 * - one containing "RETURN TO SENDER", or the ZIP 00000, verifies and is sent, and comes back
 *   returned to sender six days after its send date instead of being delivered.
 * Verification writes an address as USPS does: in capitals, common street words abbreviated
 * ("Street" → "ST"), so a member sees a "corrected" address to confirm.
 */

const LETTER = "mail_letter";
const PDF = "mail_pdf";
const EVENT = "mail_event";
const IDEMPOTENCY = "mail_idempotency";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** The sandbox's schedule: the cancellation window from creation (Lob's default), then each step from the send date. */
export const SANDBOX_SCHEDULE = {
  cancelWindowMs: 5 * MINUTE,
  mailed: 1 * DAY,
  in_transit: 2 * DAY,
  delivered: 4 * DAY,
  returned_to_sender: 6 * DAY,
} as const;

export const RETURNED_REASON = "Return to sender: not deliverable as addressed, unable to forward";

type Step = { state: LetterState; providerType: string; afterMs: number; reason: string | null };

const returns = (to: PostalAddress) =>
  /RETURN TO SENDER/i.test(`${to.line1} ${to.line2 ?? ""}`) || to.zip.startsWith("00000");

function stepsFor(to: PostalAddress): Step[] {
  const step = (state: LetterState, name: string, reason: string | null = null): Step => ({
    state,
    providerType: `letter.certified.${name}`,
    afterMs: SANDBOX_SCHEDULE[state as keyof typeof SANDBOX_SCHEDULE],
    reason,
  });
  return [
    step("mailed", "mailed"),
    step("in_transit", "in_transit"),
    returns(to) ? step("returned_to_sender", "returned_to_sender", RETURNED_REASON) : step("delivered", "delivered"),
  ];
}

type StoredEvent = Omit<MailEvent, "occurredAt"> & { occurredAt: string };
type Stored = {
  id: string;
  state: LetterState;
  to: PostalAddress;
  from: PostalAddress;
  description: string;
  metadata: Record<string, string>;
  trackingNumber: string;
  createdAt: string;
  sendDate: string;
  events: StoredEvent[];
};

export const SANDBOX_LETTER_ID = /^ltr_sb_[0-9a-f]{24}$/;
const newLetterId = () => `ltr_sb_${randomBytes(12).toString("hex")}`;

// Event ids sort in the order the events were written, as the other sandboxes' do.
let eventSequence = 0;
const newEventId = () =>
  `mev_sb_${Date.now().toString(36).padStart(9, "0")}${(eventSequence++ % 1_000_000).toString().padStart(6, "0")}_${randomBytes(6).toString("base64url")}`;

/**
 * A USPS Certified Mail number as Lob's and USPS's labels print them: 22 digits, "9407 1…",
 * the last a check digit (weights 3 and 1 from the right, as USPS's IMpb barcodes use).
 */
export function certifiedTrackingNumber(): string {
  let digits = "940711";
  while (digits.length < 21) digits += String(randomInt(10));
  return digits + checkDigit(digits);
}

export function checkDigit(digits: string): string {
  const sum = [...digits].reverse().reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 3 : 1), 0);
  return String((10 - (sum % 10)) % 10);
}

const STREET_WORDS: Record<string, string> = {
  STREET: "ST",
  AVENUE: "AVE",
  ROAD: "RD",
  DRIVE: "DR",
  BOULEVARD: "BLVD",
  LANE: "LN",
  COURT: "CT",
  PLACE: "PL",
  SUITE: "STE",
  APARTMENT: "APT",
  NORTH: "N",
  SOUTH: "S",
  EAST: "E",
  WEST: "W",
};

const uspsLine = (line: string) =>
  line
    .toUpperCase()
    .replace(/[.,]/g, "")
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => STREET_WORDS[word] ?? word)
    .join(" ");

const eventOf = (event: StoredEvent): MailEvent => ({ ...event, occurredAt: new Date(event.occurredAt) });

function letterOf(stored: Stored): MailedLetter {
  const sendDate = new Date(stored.sendDate);
  const delivery = new Date(sendDate.getTime() + SANDBOX_SCHEDULE.delivered);
  return {
    id: stored.id,
    state: stored.state,
    trackingNumber: stored.trackingNumber,
    sendDate,
    expectedDeliveryDate: delivery.toISOString().slice(0, 10),
    createdAt: new Date(stored.createdAt),
    events: stored.events.map(eventOf),
  };
}

export function sandboxMailHouse(db: Database, options: { clock?: () => Date } = {}): SandboxMailHouse {
  const clock = options.clock ?? (() => new Date());

  /** Adds an event to the letter and keeps it for the app, its state moved by the tracking rules. */
  async function record(tx: SandboxTx, stored: Stored, step: Omit<Step, "afterMs">, at: Date): Promise<Stored> {
    const event: StoredEvent = {
      id: newEventId(),
      provider: "sandbox",
      providerType: step.providerType,
      letterId: stored.id,
      state: step.state,
      reason: step.reason,
      occurredAt: at.toISOString(),
    };
    const events = [...stored.events, event];
    const track = trackOf(events.map((e) => ({ state: e.state!, occurredAt: new Date(e.occurredAt) })));
    const next = { ...stored, events, state: track.state };
    await writeObject(tx, next.id, LETTER, next);
    await writeObject(tx, event.id, EVENT, { event, delivered: false });
    return next;
  }

  /** Takes every step of the schedule that is due by `now` and not taken yet. */
  async function catchUp(tx: SandboxTx, stored: Stored, now: Date): Promise<Stored> {
    let current = stored;
    if (current.state === "cancelled") return current;
    const sendDate = new Date(current.sendDate).getTime();
    for (const step of stepsFor(current.to)) {
      const at = new Date(sendDate + step.afterMs);
      if (at > now || current.events.some((event) => event.state === step.state)) continue;
      current = await record(tx, current, step, at);
    }
    return current;
  }

  /** Runs `run` on the letter under a lock, caught up to the clock: two requests at once are one step. */
  async function change<T>(id: string, run: (tx: SandboxTx, stored: Stored) => Promise<T>): Promise<T | null> {
    if (!SANDBOX_LETTER_ID.test(id)) return null;
    return db.transaction(async (tx) => {
      const stored = await readLockedObject<Stored>(tx, `mail:${id}`, id, LETTER);
      return stored ? run(tx, await catchUp(tx, stored, clock())) : null;
    });
  }

  return {
    name: "sandbox",

    async verifyAddress(address) {
      const street = `${address.line1} ${address.line2 ?? ""}`;
      if (/UNDELIVERABLE/i.test(street)) {
        return {
          deliverability: "undeliverable",
          standardized: null,
          corrected: false,
          providerResult: "undeliverable",
        };
      }
      const standardized: PostalAddress = {
        ...address,
        line1: uspsLine(address.line1),
        line2: address.line2 ? uspsLine(address.line2) : undefined,
        city: address.city.toUpperCase(),
      };
      const deliverability = /MISSING UNIT/i.test(street) ? "unit_missing" : "deliverable";
      return {
        deliverability,
        standardized,
        corrected: !sameAddress(address, standardized),
        providerResult: deliverability === "unit_missing" ? "deliverable_missing_unit" : "deliverable",
      };
    },

    async quote({ recipients, prices }) {
      return quoteMailing(prices, recipients);
    },

    async sendLetter({ pdf, from, to, description, idempotencyKey, metadata }) {
      if (!Buffer.from(pdf.subarray(0, 5)).equals(Buffer.from("%PDF-"))) {
        throw new MailRefused("The file is not a PDF that can be printed.", 422, "invalid_file");
      }
      for (const [side, address] of [
        ["to", to],
        ["from", from],
      ] as const) {
        const parsed = postalAddressSchema.safeParse(address);
        if (!parsed.success) throw new MailRefused(`The ${side} address is not complete.`, 422, "invalid");
      }
      const made = await db.transaction(async (tx) => {
        const earlier = await readLockedObject<{ letterId: string }>(
          tx,
          `mail-create:${idempotencyKey}`,
          `midem_${idempotencyKey}`,
          IDEMPOTENCY,
        );
        const kept = earlier ? await readObject<Stored>(tx, earlier.letterId, LETTER) : null;
        if (kept) return kept;
        const now = clock();
        const stored: Stored = {
          id: newLetterId(),
          state: "created",
          to,
          from,
          description,
          metadata,
          trackingNumber: certifiedTrackingNumber(),
          createdAt: now.toISOString(),
          sendDate: new Date(now.getTime() + SANDBOX_SCHEDULE.cancelWindowMs).toISOString(),
          events: [],
        };
        await writeObject(tx, stored.id, LETTER, stored);
        await writeObject(tx, `${stored.id}.pdf`, PDF, { pdf: Buffer.from(pdf).toString("base64") });
        await writeObject(tx, `midem_${idempotencyKey}`, IDEMPOTENCY, { letterId: stored.id });
        return stored;
      });
      return letterOf(made);
    },

    async getLetter(id) {
      const stored = await change(id, async (_tx, current) => current);
      return stored ? letterOf(stored) : null;
    },

    async cancelLetter(id) {
      const done = await change(id, async (tx, stored) => {
        if (stored.state === "cancelled") return true;
        const check = cancelCheck({ state: stored.state, cancelUntil: new Date(stored.sendDate) }, clock());
        if (!check.ok) throw new MailRefused(CANCEL_REFUSALS[check.why], 422, "not_deletable");
        await record(tx, stored, { state: "cancelled", providerType: "letter.deleted", reason: null }, clock());
        return true;
      });
      if (!done) throw new MailRefused("There is no such letter at the mail house", 404, "not_found");
    },

    readWebhook() {
      throw new InvalidMailWebhook("The sandbox mail house sends no webhooks");
    },

    async listEvents(letterId) {
      const stored = await change(letterId, async (_tx, current) => current);
      return stored ? stored.events.map(eventOf) : [];
    },

    async advance(now = clock()) {
      const open = await db
        .select({ id: sandboxObjects.id })
        .from(sandboxObjects)
        .where(
          and(
            eq(sandboxObjects.type, LETTER),
            sql`${sandboxObjects.data}->>'state' in ('created', 'mailed', 'in_transit')`,
          ),
        );
      let moved = 0;
      for (const { id } of open) {
        await db.transaction(async (tx) => {
          const stored = await readLockedObject<Stored>(tx, `mail:${id}`, id, LETTER);
          if (!stored) return;
          const next = await catchUp(tx, stored, now);
          moved += next.events.length - stored.events.length;
        });
      }
      return moved;
    },

    async returnReceipt(id) {
      const stored = await change(id, async (_tx, current) => current);
      if (!stored || stored.state !== "delivered") return null;
      const delivered = stored.events.find((event) => event.state === "delivered");
      return sandboxReturnReceipt(stored, delivered ? new Date(delivered.occurredAt) : clock());
    },

    async printed(id) {
      if (!SANDBOX_LETTER_ID.test(id)) return null;
      const stored = await readObject<{ pdf: string }>(db, `${id}.pdf`, PDF);
      return stored ? new Uint8Array(Buffer.from(stored.pdf, "base64")) : null;
    },

    ...sandboxEventFeed(db, EVENT, eventOf),
  };
}

/**
 * The sandbox's electronic return receipt: one page with what USPS's gives (the article number,
 * the addressee, the delivery's day and place, the signature), marked as the sandbox's.
 */
async function sandboxReturnReceipt(letter: Stored, deliveredAt: Date): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([612, 792]);
  const lines: [string, string][] = [
    ["Article number", letter.trackingNumber],
    ["Service", "Certified Mail with electronic return receipt"],
    ["Addressee", postalLines(letter.to).join(", ")],
    [
      "Delivered",
      `${deliveredAt.toISOString().slice(0, 16).replace("T", " ")} UTC, ${letter.to.city}, ${letter.to.state} ${letter.to.zip}`,
    ],
    ["Signature", letter.to.name],
    ["Sender", postalLines(letter.from).join(", ")],
  ];
  page.drawText("Return Receipt (Electronic)", { x: 72, y: 700, size: 18, font: bold });
  page.drawText("Made by the sandbox mail house: no letter was mailed.", { x: 72, y: 676, size: 10, font });
  lines.forEach(([label, value], i) => {
    page.drawText(label, { x: 72, y: 630 - i * 28, size: 10, font: bold });
    page.drawText(value.slice(0, 90), { x: 180, y: 630 - i * 28, size: 10, font });
  });
  doc.setTitle(`Return receipt ${letter.trackingNumber}`);
  return doc.save();
}
