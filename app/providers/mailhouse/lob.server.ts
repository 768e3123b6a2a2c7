import { createHmac, timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import type { AppConfig } from "~/config/config.server";
import { quoteMailing } from "~/domain/mailing/quote";
import { wellFormedJsonText } from "~/domain/requests";
import { exchange, readReply } from "../http-exchange.server";
import {
  deletionSchema,
  errorSchema,
  eventOf,
  eventSchema,
  letterOf,
  letterSchema,
  lobAddress,
  verificationOf,
  verificationSchema,
} from "./lob-objects.server";
import { InvalidMailWebhook, MailHouseUnavailable, MailRefused, type MailEvent, type MailHouse } from "./types";

/**
 * Lob's Print & Mail and US Verification APIs (https://docs.lob.com), over fetch: Basic auth
 * with the API key as the user and no password, an `Idempotency-Key` on every create, and
 * `{ error: { message, status_code, code } }` refusals. Each call reads `globalThis.fetch` when
 * it is made, so a mock installed later (msw) still sees it. What we took from Lob's
 * documentation, and where we read it: docs/decisions/048-mail-house.md.
 */

export type LobSettings = Pick<AppConfig, "lobApiKey" | "lobWebhookSecret" | "lobApiUrl">;

export const LOB_TIMEOUT_MS = 15_000;

/** The headers Lob signs a webhook delivery in: hex HMAC-SHA256 of `${timestamp}.${rawBody}`, and that timestamp. */
export const LOB_SIGNATURE_HEADER = "Lob-Signature";
export const LOB_TIMESTAMP_HEADER = "Lob-Signature-Timestamp";

/** How far a delivery's signing time may be from ours before it is refused as a replay. */
export const LOB_SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

const UNAVAILABLE = "Mailing is not available just now. Please try again in a few minutes.";

type Reply = { status: number; body: unknown };

/** How every letter is sent: black and white, one-sided, first class, certified with a return receipt, operational. */
const LETTER_OPTIONS = {
  color: "false",
  double_sided: "false",
  // A certified letter gets Lob's own address and barcode sheet in front, which the window
  // shows; the notice's first page keeps its own address blocks as the member printed them.
  address_placement: "top_first_page",
  mail_type: "usps_first_class",
  extra_service: "certified_return_receipt",
  use_type: "operational",
};

function settingsOrThrow(settings: LobSettings) {
  const { lobApiKey: apiKey, lobWebhookSecret: webhookSecret, lobApiUrl: apiUrl } = settings;
  // The env schema requires both with MAILHOUSE=lob; this guards a direct call.
  if (!apiKey || !webhookSecret) throw new Error("Lob needs LOB_API_KEY and LOB_WEBHOOK_SECRET");
  return { apiKey, webhookSecret, apiUrl: apiUrl.replace(/\/+$/, "") };
}

const parse = <S extends z.ZodTypeAny>(schema: S, what: string, body: unknown) => readReply("Lob", schema, what, body);

export function lobMailHouse(settings: LobSettings, options: { timeoutMs?: number } = {}): MailHouse {
  const { apiKey, webhookSecret, apiUrl } = settingsOrThrow(settings);
  const timeoutMs = options.timeoutMs ?? LOB_TIMEOUT_MS;
  const authorization = `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}`;

  /** One request; 404 comes back as a reply (each call decides what "gone" means), other failures throw. */
  async function request(
    method: string,
    path: string,
    body?: { json: object } | { form: FormData },
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    return exchange(
      `${apiUrl}/v1${path}`,
      {
        method,
        headers: {
          Authorization: authorization,
          Accept: "application/json",
          // A form's boundary is set by fetch itself.
          ...(body && "json" in body ? { "Content-Type": "application/json" } : {}),
          ...headers,
        },
        body: body ? ("json" in body ? JSON.stringify(body.json) : body.form) : undefined,
      },
      {
        provider: "Lob",
        timeoutMs,
        unavailable: (cause) => new MailHouseUnavailable(UNAVAILABLE, { cause }),
        judge(status, json) {
          if (status === 408 || status === 429 || status >= 500) {
            throw new MailHouseUnavailable(UNAVAILABLE, { cause: new Error(`Lob answered ${status}`) });
          }
          if (status >= 400 && status !== 404) {
            const refusal = errorSchema.safeParse(json);
            throw new MailRefused(
              refusal.success ? refusal.data.error.message : `The mail house refused the request (${status})`,
              status,
              refusal.success ? (refusal.data.error.code ?? null) : null,
            );
          }
        },
      },
    );
  }

  const letterPath = (id: string) => `/letters/${encodeURIComponent(id)}`;

  async function readLetter(id: string) {
    const reply = await request("GET", letterPath(id));
    return reply.status === 404 ? null : letterOf(parse(letterSchema, "a letter", reply.body));
  }

  return {
    name: "lob",

    async verifyAddress(address) {
      const reply = await request("POST", "/us_verifications", {
        json: {
          primary_line: address.line1,
          ...(address.line2 ? { secondary_line: address.line2 } : {}),
          city: address.city,
          state: address.state,
          zip_code: address.zip,
        },
      });
      if (reply.status === 404) throw new MailRefused("The address could not be verified", 404);
      return verificationOf(address, parse(verificationSchema, "a verification", reply.body));
    },

    async quote({ recipients, prices }) {
      return quoteMailing(prices, recipients);
    },

    async sendLetter({ pdf, from, to, description, idempotencyKey, metadata }) {
      // A PDF goes up as a file, so the letter is a multipart form: nested objects as `to[name]`.
      const form = new FormData();
      form.set("description", description);
      for (const [side, address] of [
        ["to", to],
        ["from", from],
      ] as const) {
        for (const [field, value] of Object.entries(lobAddress(address))) form.set(`${side}[${field}]`, value);
      }
      form.set("file", new Blob([new Uint8Array(pdf)], { type: "application/pdf" }), "letter.pdf");
      for (const [key, value] of Object.entries(LETTER_OPTIONS)) form.set(key, value);
      for (const [key, value] of Object.entries(metadata)) form.set(`metadata[${key}]`, value);
      const reply = await request("POST", "/letters", { form }, { "Idempotency-Key": idempotencyKey });
      if (reply.status === 404) throw new MailRefused("The mail house could not create the letter", 404);
      return letterOf(parse(letterSchema, "a letter", reply.body));
    },

    getLetter: readLetter,

    async cancelLetter(id) {
      try {
        const reply = await request("DELETE", letterPath(id));
        if (reply.status === 404) throw new MailRefused("There is no such letter at the mail house", 404, "not_found");
        parse(deletionSchema, "a deletion", reply.body);
      } catch (error) {
        // A letter cancelled already is what was asked; any other refusal stands.
        if (error instanceof MailRefused && (await readLetter(id))?.state === "cancelled") return;
        throw error;
      }
    },

    readWebhook(rawBody, headers, now = new Date()) {
      return readLobWebhook(webhookSecret, rawBody, headers, now);
    },

    async listEvents(letterId) {
      return (await readLetter(letterId))?.events ?? [];
    },

    // Lob prints the certified label and USPS keeps the return receipt: its API gives no copy.
    async returnReceipt() {
      return null;
    },
  };
}

/** A signing time in milliseconds: Lob's header holds milliseconds; one of ten digits or fewer is read as seconds. */
function signedAt(timestamp: string): number | null {
  if (!/^\d{1,16}$/.test(timestamp)) return null;
  const value = Number(timestamp);
  return timestamp.length <= 10 ? value * 1000 : value;
}

/**
 * Checks a delivery's signature (hex HMAC-SHA256 of the timestamp header, ".", and the raw body,
 * keyed with the webhook's secret) and its age, and reads it. A delivery signed more than five
 * minutes from `now` is refused as a possible replay: Lob signs each retry afresh.
 */
export function readLobWebhook(secret: string, rawBody: string, headers: Headers, now = new Date()): MailEvent {
  const signature = headers.get(LOB_SIGNATURE_HEADER)?.trim();
  const timestamp = headers.get(LOB_TIMESTAMP_HEADER)?.trim();
  if (!signature || !timestamp) {
    throw new InvalidMailWebhook(`The delivery has no ${LOB_SIGNATURE_HEADER} or ${LOB_TIMESTAMP_HEADER} header`);
  }
  const expected = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`, "utf8").digest();
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, "hex") : null;
  if (!given || !timingSafeEqual(given, expected)) {
    throw new InvalidMailWebhook("The delivery's signature does not match its body");
  }
  const at = signedAt(timestamp);
  if (at === null || Math.abs(now.getTime() - at) > LOB_SIGNATURE_TOLERANCE_MS) {
    throw new InvalidMailWebhook("The delivery's signature is too old or too far ahead");
  }
  let body: unknown;
  try {
    body = JSON.parse(wellFormedJsonText(rawBody));
  } catch {
    throw new InvalidMailWebhook("The delivery's body is not JSON");
  }
  const parsed = eventSchema.safeParse(body);
  if (!parsed.success) throw new InvalidMailWebhook("The delivery is not a Lob event");
  return eventOf(parsed.data);
}
