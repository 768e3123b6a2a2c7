import { createHmac, randomBytes } from "node:crypto";
import { delay, http, HttpResponse, type HttpHandler } from "msw";
import { FakeProvider, type ProviderCall } from "./fake-provider";

/**
 * A small Lob Print & Mail API in memory, on Lob's wire (github.com/lob/lob-openapi): Basic auth
 * with the secret key as the user and no password, letters created from a multipart form
 * (`to[name]`, `file` as a PDF) with an `Idempotency-Key` answering the letter it made before,
 * `ltr_…` letters as Lob returns them (`tracking_number`, `send_date`, `expected_delivery_date`,
 * `tracking_events`), `{ error: { message, status_code, code } }` refusals, US verifications
 * with `deliverability` and `components`, and events signed as Lob signs its webhooks. It keeps
 * every request for tests to read, and lets a test break the next request.
 */

export const LOB_API = "https://api.lob.com";
export const LOB_API_KEY = "test_7b9c0e1f2a3d4c5b6a7f8e9d0c1b2a3f4e5";
export const LOB_WEBHOOK_SECRET = "lob-test-webhook-secret-memberhall-0000";

export type LobCall = ProviderCall & {
  /** The Basic auth user and password, as sent. */
  user: string | null;
  password: string | null;
  idempotencyKey: string | null;
  contentType: string | null;
  /** A JSON body, or a form's text fields by name. */
  body: unknown;
  /** A form's file, if it had one. */
  file: { name: string; type: string; bytes: Buffer } | null;
};

type Failure = "server" | "rate_limit" | "network" | "timeout";
type Json = Record<string, unknown>;

const refusal = (status: number, code: string, message: string) =>
  HttpResponse.json({ error: { message, status_code: status, code } }, { status });

const hex = (bytes: number) => randomBytes(bytes).toString("hex");

/** Lob in memory. Its clock is the machine's unless a test sets `now`. */
export class FakeLob extends FakeProvider<LobCall, Failure> {
  readonly letters = new Map<string, Json>();
  private readonly keys = new Map<string, string>();
  now: () => Date = () => new Date();

  reset() {
    this.resetRequests();
    this.letters.clear();
    this.keys.clear();
    this.now = () => new Date();
  }

  // ── USPS's side, at Lob ──

  /** A USPS scan of the letter, as Lob records it among its `tracking_events`. */
  scan(id: string, name: string, time: Date, details: Json | null = null) {
    const letter = this.letters.get(id)!;
    const events = letter.tracking_events as Json[];
    events.push({
      id: `evnt_${hex(8)}`,
      type: "certified",
      name,
      details,
      location: "62701",
      time: time.toISOString(),
      date_created: this.now().toISOString(),
      date_modified: this.now().toISOString(),
      object: "tracking_event",
    });
    letter.date_modified = this.now().toISOString();
  }

  /** The event Lob posts to a webhook for the letter as it is now. */
  event(id: string, type: string, eventId = `evt_${hex(8)}`): Json {
    return {
      id: eventId,
      body: structuredClone(this.letters.get(id)),
      reference_id: id,
      event_type: { id: type, enabled_for_test: true, resource: "letters", object: "event_type" },
      date_created: this.now().toISOString(),
      object: "event",
    };
  }

  // ── the API ──

  private address(form: Json, side: "to" | "from"): Json | string {
    const field = (name: string) =>
      typeof form[`${side}[${name}]`] === "string" ? (form[`${side}[${name}]`] as string) : "";
    for (const name of ["address_line1", "address_city", "address_state", "address_zip"]) {
      if (!field(name)) return `${side}.${name} is required`;
    }
    if (!field("name")) return `${side} must contain at least one of [name, company]`;
    return {
      id: `adr_${hex(8)}`,
      description: null,
      name: field("name").toUpperCase(),
      company: null,
      phone: null,
      email: null,
      address_line1: field("address_line1").toUpperCase(),
      address_line2: field("address_line2").toUpperCase() || null,
      address_city: field("address_city").toUpperCase(),
      address_state: field("address_state").toUpperCase(),
      address_zip: field("address_zip"),
      address_country: "UNITED STATES",
      metadata: {},
      date_created: this.now().toISOString(),
      date_modified: this.now().toISOString(),
      object: "address",
    };
  }

  create(call: LobCall) {
    if (call.idempotencyKey && this.keys.has(call.idempotencyKey)) {
      return HttpResponse.json(this.letters.get(this.keys.get(call.idempotencyKey)!));
    }
    const form = (call.body ?? {}) as Json;
    const to = this.address(form, "to");
    const from = this.address(form, "from");
    for (const address of [to, from]) if (typeof address === "string") return refusal(422, "invalid", address);
    const street = `${form["to[address_line1]"] ?? ""}${form["to[address_line2]"] ?? ""}`;
    if (street.length > 50) {
      return refusal(
        422,
        "address_length_exceeds_limit",
        "The sum of to.address_line1 and to.address_line2 cannot surpass 50 characters",
      );
    }
    if (!call.file || !call.file.bytes.subarray(0, 5).equals(Buffer.from("%PDF-"))) {
      return refusal(422, "invalid_file", "file is invalid");
    }
    if (form.use_type !== "marketing" && form.use_type !== "operational") {
      return refusal(422, "mail_use_type_can_not_be_null", 'use_type must be one of "marketing" or "operational"');
    }
    const created = this.now();
    const id = `ltr_${hex(8)}`;
    const metadata = Object.fromEntries(
      Object.entries(form)
        .filter(([name]) => name.startsWith("metadata["))
        .map(([name, value]) => [name.slice("metadata[".length, -1), value]),
    );
    const letter: Json = {
      id,
      description: form.description ?? null,
      metadata,
      to,
      from,
      color: form.color === "true",
      double_sided: form.double_sided === "true",
      address_placement: form.address_placement ?? "top_first_page",
      return_envelope: false,
      perforated_page: null,
      custom_envelope: null,
      extra_service: form.extra_service ?? null,
      mail_type: form.mail_type ?? "usps_first_class",
      url: `https://lob-assets.com/letters/${id}.pdf?expires=1540372221&signature=${hex(12)}`,
      carrier: "USPS",
      // Lob gives a certified letter its tracking number on creation (a dummy one in test mode).
      tracking_number: form.extra_service ? `9407111899560${String(this.letters.size).padStart(9, "0")}` : null,
      tracking_events: [],
      thumbnails: [],
      merge_variables: null,
      expected_delivery_date: new Date(created.getTime() + 6 * 86_400_000).toISOString().slice(0, 10),
      date_created: created.toISOString(),
      date_modified: created.toISOString(),
      send_date: new Date(created.getTime() + 5 * 60_000).toISOString(),
      use_type: form.use_type,
      fsc: false,
      status: "processed",
      object: "letter",
    };
    this.letters.set(id, letter);
    if (call.idempotencyKey) this.keys.set(call.idempotencyKey, id);
    return HttpResponse.json(letter);
  }

  cancel(id: string) {
    const letter = this.letters.get(id);
    if (!letter) return refusal(404, "not_found", "letter not found");
    if (letter.deleted || this.now() >= new Date(String(letter.send_date))) {
      return refusal(422, "not_deletable", "letter cannot be deleted");
    }
    letter.deleted = true;
    return HttpResponse.json({ id, deleted: true });
  }

  verify(body: Json) {
    const line = String(body.primary_line ?? "");
    if (!line || (!body.zip_code && !(body.city && body.state))) {
      return refusal(422, "invalid", "primary_line and either zip_code or city and state are required");
    }
    const undeliverable = /undeliverable/i.test(line);
    const deliverability = undeliverable
      ? "undeliverable"
      : /missing unit/i.test(line)
        ? "deliverable_missing_unit"
        : "deliverable";
    const zip = undeliverable ? "" : String(body.zip_code ?? "").slice(0, 5);
    const components = {
      primary_number: undeliverable ? "" : (/^\d+/.exec(line)?.[0] ?? ""),
      city: undeliverable ? "" : String(body.city ?? "").toUpperCase(),
      state: undeliverable ? "" : String(body.state ?? "").toUpperCase(),
      zip_code: zip,
      zip_code_plus_4: undeliverable ? "" : "1702",
      zip_code_type: "standard",
      address_type: "residential",
      record_type: "street",
    };
    return HttpResponse.json({
      id: `us_ver_${hex(6)}`,
      recipient: null,
      primary_line: undeliverable ? "" : line.toUpperCase().replace(/\bSTREET\b/, "ST"),
      secondary_line: String(body.secondary_line ?? "").toUpperCase(),
      urbanization: "",
      last_line: undeliverable ? "" : `${components.city} ${components.state} ${zip}-1702`,
      deliverability,
      valid_address: !undeliverable,
      components,
      deliverability_analysis: { dpv_confirmation: undeliverable ? "" : "Y", dpv_footnotes: ["AA", "BB"] },
      lob_confidence_score: { score: undeliverable ? 0 : 100, level: undeliverable ? "low" : "high" },
      object: "us_verification",
    });
  }
}

export const lob = new FakeLob();

async function callOf(request: Request): Promise<LobCall> {
  const url = new URL(request.url);
  const contentType = request.headers.get("content-type");
  let body: unknown = null;
  let file: LobCall["file"] = null;
  if (contentType?.startsWith("multipart/form-data")) {
    const fields: Record<string, string> = {};
    for (const [name, value] of await request.formData()) {
      if (typeof value === "string") fields[name] = value;
      else file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
    }
    body = fields;
  } else if (request.method !== "GET" && request.method !== "HEAD" && request.method !== "DELETE") {
    const text = await request.text();
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
  }
  const basic = /^Basic (.+)$/.exec(request.headers.get("authorization") ?? "");
  const [user = null, password = null] = basic ? Buffer.from(basic[1]!, "base64").toString().split(":") : [];
  return {
    origin: url.origin,
    method: request.method,
    path: url.pathname,
    user,
    password,
    idempotencyKey: request.headers.get("idempotency-key"),
    contentType,
    body,
    file,
  };
}

/** Lob's API at `base`: its host, or the local one LOB_API_URL names. */
export function lobHandlers(base = LOB_API, fake = lob): HttpHandler[] {
  return [
    http.all(`${base}/v1/*`, async ({ request }) => {
      const call = await callOf(request);
      const failure = fake.receive(call);
      if (failure === "network") return HttpResponse.error();
      if (failure === "timeout") await delay(1_000);
      if (failure === "server") return refusal(500, "internal_server_error", "An internal server error occurred");
      if (failure === "rate_limit") {
        return refusal(
          429,
          "rate_limit_exceeded",
          "Rate limit exceeded. Please wait 5 seconds and try your request again.",
        );
      }
      if (call.user !== LOB_API_KEY || call.password !== "") {
        return refusal(
          401,
          "invalid_api_key",
          "Your API key is not valid. Please sign up on lob.com to get a valid api key.",
        );
      }
      if (call.path === "/v1/us_verifications" && call.method === "POST") return fake.verify((call.body ?? {}) as Json);
      if (call.path === "/v1/letters" && call.method === "POST") return fake.create(call);
      const [, , resource, id] = call.path.split("/");
      if (resource !== "letters" || !id)
        return refusal(404, "unrecognized_endpoint", "The requested endpoint does not exist");
      const letterId = decodeURIComponent(id);
      if (call.method === "GET") {
        const letter = fake.letters.get(letterId);
        return letter ? HttpResponse.json(letter) : refusal(404, "not_found", "letter not found");
      }
      if (call.method === "DELETE") return fake.cancel(letterId);
      return refusal(404, "unrecognized_endpoint", "The requested endpoint does not exist");
    }),
  ];
}

export const handlers = lobHandlers();

/** A webhook delivery as Lob signs it: hex HMAC-SHA256 of `${timestamp}.${body}`, the timestamp in milliseconds. */
export function signedDelivery(body: unknown, { secret = LOB_WEBHOOK_SECRET, at = new Date() } = {}) {
  const rawBody = typeof body === "string" ? body : JSON.stringify(body);
  const timestamp = String(at.getTime());
  const signature = createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
  return {
    rawBody,
    headers: new Headers({
      "content-type": "application/json",
      "lob-signature": signature,
      "lob-signature-timestamp": timestamp,
    }),
  };
}
