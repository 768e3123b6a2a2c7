import { z } from "zod";
import { sameAddress, type PostalAddress } from "~/domain/mailing/address";
import { applyLetterEvent, newTrack, type LetterState } from "~/domain/mailing/tracking";
import type { AddressVerification, Deliverability, MailedLetter, MailEvent } from "./types";

/**
 * Lob's JSON as its Print & Mail and US Verification APIs send it (github.com/lob/lob-openapi),
 * read with zod: only the fields we use are required, and everything else may come and go.
 */

const trackingEventSchema = z
  .object({
    id: z.string().min(1),
    /** "Mailed", "In Transit", "In Local Area", "Processed for Delivery", "Pickup Available", "Delivered", "Re-Routed", "Returned to Sender", "Issue". */
    name: z.string().min(1),
    /** When USPS scanned it; `date_created` is when Lob recorded it. */
    time: z.string().nullish(),
    date_created: z.string(),
    details: z
      .object({ event: z.string().nullish(), description: z.string().nullish(), notes: z.string().nullish() })
      .passthrough()
      .nullish(),
  })
  .passthrough();
type TrackingEvent = z.infer<typeof trackingEventSchema>;

export const letterSchema = z
  .object({
    id: z.string().regex(/^ltr_\w+$/),
    tracking_number: z.string().nullish(),
    tracking_events: z.array(trackingEventSchema).nullish(),
    send_date: z.string(),
    expected_delivery_date: z.string().nullish(),
    date_created: z.string(),
    /** The PDF's rendering: processed, rendered, failed. */
    status: z.string().nullish(),
    failure_reason: z.object({ failure_reason: z.string().nullish() }).passthrough().nullish(),
    deleted: z.boolean().nullish(),
  })
  .passthrough();
export type LobLetter = z.infer<typeof letterSchema>;

/** DELETE /v1/letters/{id}. */
export const deletionSchema = z.object({ id: z.string(), deleted: z.boolean() }).passthrough();

export const verificationSchema = z
  .object({
    primary_line: z.string(),
    secondary_line: z.string().nullish(),
    /** deliverable, deliverable_unnecessary_unit, _incorrect_unit, _missing_unit, undeliverable; empty from a test key. */
    deliverability: z.string(),
    components: z
      .object({
        city: z.string().nullish(),
        state: z.string().nullish(),
        zip_code: z.string().nullish(),
        zip_code_plus_4: z.string().nullish(),
      })
      .passthrough(),
  })
  .passthrough();

/** Lob's refusals: `{ "error": { "message", "status_code", "code" } }`. */
export const errorSchema = z.object({
  error: z
    .object({ message: z.string().min(1), status_code: z.number().optional(), code: z.string().optional() })
    .passthrough(),
});

/** A webhook delivery: the event object, its `body` the letter as it was then. */
export const eventSchema = z.object({
  id: z.string().min(1),
  event_type: z.object({ id: z.string().min(1) }).passthrough(),
  reference_id: z.string().nullish(),
  date_created: z.string(),
  body: z.record(z.unknown()).nullish(),
});

const DELIVERABILITY: Record<string, Deliverability> = {
  deliverable: "deliverable",
  deliverable_unnecessary_unit: "unit_unnecessary",
  deliverable_incorrect_unit: "unit_incorrect",
  deliverable_missing_unit: "unit_missing",
  undeliverable: "undeliverable",
};

/**
 * The verification in our terms; the name is the one given, as Lob verifies places, not people.
 * An answer with no deliverability we know (a test key's empty one) is no match.
 */
export function verificationOf(given: PostalAddress, body: z.infer<typeof verificationSchema>): AddressVerification {
  const { city, state, zip_code: zip, zip_code_plus_4: plus4 } = body.components;
  const deliverability = DELIVERABILITY[body.deliverability] ?? "undeliverable";
  const standardized: PostalAddress | null =
    deliverability !== "undeliverable" && body.primary_line.trim() && city && state && zip
      ? {
          name: given.name,
          line1: body.primary_line.trim(),
          line2: body.secondary_line?.trim() || undefined,
          city,
          state,
          zip: plus4 ? `${zip}-${plus4}` : zip,
          country: "US",
        }
      : null;
  return {
    deliverability,
    standardized,
    corrected: standardized !== null && !sameAddress(given, standardized),
    providerResult: body.deliverability,
  };
}

/** What a tracking event's name says the letter became; an "Issue" or "Pickup Available" says nothing final. */
const TRACKING_STATE: Record<string, LetterState | null> = {
  Mailed: "mailed",
  "In Transit": "in_transit",
  "In Local Area": "in_transit",
  "Processed for Delivery": "in_transit",
  "Re-Routed": "in_transit",
  "Pickup Available": "in_transit",
  Delivered: "delivered",
  "Returned to Sender": "returned_to_sender",
  Issue: null,
};

/** The webhook event types of a letter that say where it is; the others (rendered, viewed, a return envelope's) say nothing of it. */
export const EVENT_STATE: Record<string, LetterState> = {
  "letter.mailed": "mailed",
  "letter.certified.mailed": "mailed",
  "letter.in_transit": "in_transit",
  "letter.certified.in_transit": "in_transit",
  "letter.in_local_area": "in_transit",
  "letter.certified.in_local_area": "in_transit",
  "letter.processed_for_delivery": "in_transit",
  "letter.certified.processed_for_delivery": "in_transit",
  "letter.re-routed": "in_transit",
  "letter.certified.re-routed": "in_transit",
  "letter.certified.pickup_available": "in_transit",
  "letter.delivered": "delivered",
  "letter.certified.delivered": "delivered",
  "letter.returned_to_sender": "returned_to_sender",
  "letter.certified.returned_to_sender": "returned_to_sender",
  "letter.deleted": "cancelled",
  "letter.failed": "failed",
  "letter.rejected": "failed",
};

/** The tracking event name an event type stands for: "letter.certified.in_local_area" → "In Local Area". */
export function trackingNameOf(eventType: string): string | null {
  const match = /^letter\.(?:certified\.)?([a-z_-]+)$/.exec(eventType);
  if (!match) return null;
  const wanted = match[1]!.replace(/[_-]/g, " ");
  return Object.keys(TRACKING_STATE).find((name) => name.toLowerCase().replace(/-/g, " ") === wanted) ?? null;
}

const dateOr = (text: string | null | undefined, fallback: Date) => {
  const date = text ? new Date(text) : null;
  return date && !Number.isNaN(date.getTime()) ? date : fallback;
};

/** Why, in the carrier's words: the detail's description and its notes. */
export const reasonOf = (event: TrackingEvent) =>
  [event.details?.description, event.details?.notes].filter((part) => part?.trim()).join(". ") || null;

export function trackingEventOf(letterId: string, event: TrackingEvent): MailEvent {
  const recorded = dateOr(event.date_created, new Date(0));
  const state = TRACKING_STATE[event.name] ?? null;
  return {
    id: event.id,
    provider: "lob",
    providerType: event.name,
    letterId,
    state,
    reason: state === "returned_to_sender" || state === null ? reasonOf(event) : null,
    occurredAt: dateOr(event.time, recorded),
  };
}

/** A letter in our terms: its state from its tracking events, then its cancellation or failure. */
export function letterOf(letter: LobLetter): MailedLetter {
  const createdAt = dateOr(letter.date_created, new Date());
  const events = (letter.tracking_events ?? [])
    .map((event) => trackingEventOf(letter.id, event))
    .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
  let track = newTrack();
  for (const event of events) if (event.state) track = applyLetterEvent(track, { ...event, state: event.state }).track;
  if (letter.deleted) track = applyLetterEvent(track, { state: "cancelled", occurredAt: createdAt }).track;
  if (letter.status === "failed") {
    const reason = letter.failure_reason?.failure_reason ?? null;
    track = applyLetterEvent(track, { state: "failed", occurredAt: createdAt, reason }).track;
  }
  return {
    id: letter.id,
    state: track.state,
    trackingNumber: letter.tracking_number ?? null,
    sendDate: dateOr(letter.send_date, createdAt),
    expectedDeliveryDate: letter.expected_delivery_date ?? null,
    createdAt,
    events,
  };
}

/** A webhook event in our terms. Its time is USPS's scan of the event's kind, where the letter it carries has one. */
export function eventOf(event: z.infer<typeof eventSchema>): MailEvent {
  const type = event.event_type.id;
  const body = letterSchema.safeParse(event.body);
  const letterId = type.startsWith("letter.") ? (event.reference_id ?? (body.success ? body.data.id : null)) : null;
  const name = trackingNameOf(type);
  const scan =
    name && body.success
      ? (body.data.tracking_events ?? []).filter((tracking) => tracking.name === name).at(-1)
      : undefined;
  const state = EVENT_STATE[type] ?? null;
  const failure = body.success ? (body.data.failure_reason?.failure_reason ?? null) : null;
  return {
    id: event.id,
    provider: "lob",
    providerType: type,
    letterId,
    state,
    reason: state === "failed" ? failure : scan ? reasonOf(scan) : null,
    occurredAt: dateOr(scan?.time, dateOr(event.date_created, new Date())),
  };
}

/** Lob's address fields, as its letters take `to` and `from`. */
export function lobAddress(address: PostalAddress): Record<string, string> {
  return {
    name: address.name,
    address_line1: address.line1,
    ...(address.line2 ? { address_line2: address.line2 } : {}),
    address_city: address.city,
    address_state: address.state,
    address_zip: address.zip,
    address_country: address.country,
  };
}
