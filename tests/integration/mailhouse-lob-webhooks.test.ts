import { beforeEach, describe, expect, it } from "vitest";
import { lobMailHouse, readLobWebhook } from "~/providers/mailhouse/lob.server";
import { InvalidMailWebhook, type MailHouse } from "~/providers/mailhouse/types";
import { LOB_API, LOB_API_KEY, LOB_WEBHOOK_SECRET, lob, signedDelivery } from "../mocks/lob";

const now = new Date("2026-12-03T12:00:00Z");
let mailhouse: MailHouse;
let letterId: string;

beforeEach(async () => {
  lob.reset();
  lob.now = () => new Date("2026-11-28T10:00:00Z");
  mailhouse = lobMailHouse({ lobApiKey: LOB_API_KEY, lobWebhookSecret: LOB_WEBHOOK_SECRET, lobApiUrl: LOB_API });
  const pdf = new TextEncoder().encode("%PDF-1.7\n%%EOF\n");
  const address = {
    name: "Officer Dana Reyes",
    line1: "1 Precinct Way",
    city: "Springfield",
    state: "IL",
    zip: "62701",
  };
  const letter = await mailhouse.sendLetter({
    pdf,
    from: { ...address, name: "Ada Lovelace", country: "US" },
    to: { ...address, country: "US" },
    description: "Notice, round 1",
    idempotencyKey: "mailing-1",
    metadata: {},
  });
  letterId = letter.id;
});

/** The delivery Lob posts for the letter as it is, signed now. */
const delivery = (type: string, options: { at?: Date; secret?: string; eventId?: string } = {}) =>
  signedDelivery(lob.event(letterId, type, options.eventId), { at: options.at ?? now, secret: options.secret });

describe("Lob webhooks", () => {
  it("reads a signed delivery into our event, at USPS's scan time", () => {
    lob.scan(letterId, "Mailed", new Date("2026-11-30T15:00:00Z"));
    lob.scan(letterId, "Delivered", new Date("2026-12-03T11:30:00Z"), {
      event: "delivered",
      description: "Package has been delivered.",
    });
    const { rawBody, headers } = delivery("letter.certified.delivered", { eventId: "evt_d95ff8ffd2b5cfb4" });
    expect(mailhouse.readWebhook(rawBody, headers, now)).toEqual({
      id: "evt_d95ff8ffd2b5cfb4",
      provider: "lob",
      providerType: "letter.certified.delivered",
      letterId,
      state: "delivered",
      reason: "Package has been delivered.",
      occurredAt: new Date("2026-12-03T11:30:00Z"),
    });
  });

  it.each([
    ["letter.mailed", "mailed"],
    ["letter.certified.mailed", "mailed"],
    ["letter.in_transit", "in_transit"],
    ["letter.in_local_area", "in_transit"],
    ["letter.processed_for_delivery", "in_transit"],
    ["letter.re-routed", "in_transit"],
    ["letter.certified.pickup_available", "in_transit"],
    ["letter.delivered", "delivered"],
    ["letter.returned_to_sender", "returned_to_sender"],
    ["letter.certified.returned_to_sender", "returned_to_sender"],
    ["letter.deleted", "cancelled"],
    ["letter.failed", "failed"],
    ["letter.created", null],
    ["letter.rendered_pdf", null],
    ["letter.certified.issue", null],
    ["letter.viewed", null],
  ])("reads %s as %s", (type, state) => {
    const { rawBody, headers } = delivery(type);
    expect(mailhouse.readWebhook(rawBody, headers, now)).toMatchObject({ providerType: type, letterId, state });
  });

  it("falls back to the event's own time when the letter carries no scan of its kind", () => {
    const { rawBody, headers } = delivery("letter.in_transit");
    expect(mailhouse.readWebhook(rawBody, headers, now).occurredAt).toEqual(new Date("2026-11-28T10:00:00Z"));
  });

  it("names no letter for an event about something else", () => {
    const body = { ...lob.event(letterId, "address.created"), reference_id: "adr_d3489cd64c791ab5", body: {} };
    const { rawBody, headers } = signedDelivery(body, { at: now });
    expect(mailhouse.readWebhook(rawBody, headers, now)).toMatchObject({ letterId: null, state: null });
  });

  it("refuses a delivery signed with another secret (the API key, say)", () => {
    const { rawBody, headers } = delivery("letter.delivered", { secret: LOB_API_KEY });
    expect(() => mailhouse.readWebhook(rawBody, headers, now)).toThrow(
      "The delivery's signature does not match its body",
    );
  });

  it("refuses a delivery whose body was changed after signing", () => {
    const { rawBody, headers } = delivery("letter.mailed");
    const forged = rawBody.replace("letter.mailed", "letter.delivered");
    expect(() => mailhouse.readWebhook(forged, headers, now)).toThrow(InvalidMailWebhook);
  });

  it("refuses a delivery whose timestamp was changed after signing", () => {
    const { rawBody, headers } = delivery("letter.mailed");
    headers.set("lob-signature-timestamp", String(now.getTime() + 1));
    expect(() => mailhouse.readWebhook(rawBody, headers, now)).toThrow(
      "The delivery's signature does not match its body",
    );
  });

  it("refuses a delivery signed more than five minutes before or after now, and takes one within", () => {
    const minutes = (n: number) => new Date(now.getTime() + n * 60_000);
    for (const at of [minutes(-6), minutes(6)]) {
      const { rawBody, headers } = delivery("letter.mailed", { at });
      expect(() => mailhouse.readWebhook(rawBody, headers, now)).toThrow(
        "The delivery's signature is too old or too far ahead",
      );
    }
    const { rawBody, headers } = delivery("letter.mailed", { at: minutes(-4) });
    expect(mailhouse.readWebhook(rawBody, headers, now).state).toBe("mailed");
  });

  it("refuses a delivery without its headers, or with a signature that is not hex HMAC-SHA256", () => {
    const { rawBody, headers } = delivery("letter.mailed");
    const without = (name: string) => {
      const copy = new Headers(headers);
      copy.delete(name);
      return copy;
    };
    for (const name of ["lob-signature", "lob-signature-timestamp"]) {
      expect(() => mailhouse.readWebhook(rawBody, without(name), now)).toThrow(
        "The delivery has no Lob-Signature or Lob-Signature-Timestamp header",
      );
    }
    for (const signature of ["abc", "z".repeat(64), `${"0".repeat(64)}00`]) {
      const bad = new Headers(headers);
      bad.set("lob-signature", signature);
      expect(() => mailhouse.readWebhook(rawBody, bad, now)).toThrow(InvalidMailWebhook);
    }
  });

  it("refuses a signed body that is not a Lob event", () => {
    for (const body of ["not json", JSON.stringify({ body: {} })]) {
      const { rawBody, headers } = signedDelivery(body, { at: now });
      expect(() => readLobWebhook(LOB_WEBHOOK_SECRET, rawBody, headers, now)).toThrow(InvalidMailWebhook);
    }
  });

  it("gives a repeated delivery the same id, so it is stored once", () => {
    const first = delivery("letter.mailed", { eventId: "evt_1234567890abcdef" });
    const again = delivery("letter.mailed", { eventId: "evt_1234567890abcdef", at: new Date(now.getTime() + 60_000) });
    expect(mailhouse.readWebhook(again.rawBody, again.headers, now).id).toBe(
      mailhouse.readWebhook(first.rawBody, first.headers, now).id,
    );
  });
});
