import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { http, HttpResponse } from "msw";
import { PDFDocument } from "pdf-lib";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "~/config/config.server";
import type { PostalAddress } from "~/domain/mailing/address";
import { lobMailHouse, type LobSettings } from "~/providers/mailhouse/lob.server";
import { MailHouseUnavailable, MailRefused, type MailHouse, type SendLetterInput } from "~/providers/mailhouse/types";
import { mockServer } from "../mocks/server";
import { LOB_API, LOB_API_KEY, LOB_WEBHOOK_SECRET, lob, lobHandlers } from "../mocks/lob";

const settings: LobSettings = { lobApiKey: LOB_API_KEY, lobWebhookSecret: LOB_WEBHOOK_SECRET, lobApiUrl: LOB_API };

// Made as the module loads, before msw starts (tests/setup/msw.ts): it must still reach it.
const madeBeforeMsw = lobMailHouse(settings);

const member: PostalAddress = {
  name: "Ada Lovelace",
  line1: "12 Claimant Road",
  city: "Dover",
  state: "DE",
  zip: "19901",
  country: "US",
};
const respondent: PostalAddress = {
  name: "Officer Dana Reyes",
  line1: "1 Precinct Way",
  line2: "Suite 5",
  city: "Springfield",
  state: "IL",
  zip: "62701",
  country: "US",
};

let pdf: Uint8Array;
let mailhouse: MailHouse;

beforeAll(async () => {
  const document = await PDFDocument.create();
  document.addPage([612, 792]).drawText("Notice of liability");
  pdf = await document.save();
});

beforeEach(() => {
  lob.reset();
  mailhouse = lobMailHouse(settings);
});

const input = (overrides: Partial<SendLetterInput> = {}): SendLetterInput => ({
  pdf,
  from: member,
  to: respondent,
  description: "Notice, round 1, to Officer Dana Reyes",
  idempotencyKey: "mailing-41-respondent-1",
  metadata: { round_id: "41", respondent: "1" },
  ...overrides,
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected a failure"),
    (e: unknown) => e,
  );

describe("Lob adapter (contract, against msw)", () => {
  it("sends a letter: a multipart POST /v1/letters with Basic auth, the Idempotency-Key, the PDF and certified return receipt", async () => {
    const letter = await mailhouse.sendLetter(input());

    expect(lob.calls).toHaveLength(1);
    const [call] = lob.calls;
    expect(call).toMatchObject({
      origin: LOB_API,
      method: "POST",
      path: "/v1/letters",
      user: LOB_API_KEY,
      password: "",
      idempotencyKey: "mailing-41-respondent-1",
    });
    expect(call!.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(call!.body).toEqual({
      description: "Notice, round 1, to Officer Dana Reyes",
      "to[name]": "Officer Dana Reyes",
      "to[address_line1]": "1 Precinct Way",
      "to[address_line2]": "Suite 5",
      "to[address_city]": "Springfield",
      "to[address_state]": "IL",
      "to[address_zip]": "62701",
      "to[address_country]": "US",
      "from[name]": "Ada Lovelace",
      "from[address_line1]": "12 Claimant Road",
      "from[address_city]": "Dover",
      "from[address_state]": "DE",
      "from[address_zip]": "19901",
      "from[address_country]": "US",
      color: "false",
      double_sided: "false",
      address_placement: "top_first_page",
      mail_type: "usps_first_class",
      extra_service: "certified_return_receipt",
      use_type: "operational",
      "metadata[round_id]": "41",
      "metadata[respondent]": "1",
    });
    expect(call!.file).toMatchObject({ name: "letter.pdf", type: "application/pdf" });
    expect(call!.file!.bytes.equals(Buffer.from(pdf))).toBe(true);

    const stored = lob.letters.get(letter.id)!;
    expect(letter).toEqual({
      id: expect.stringMatching(/^ltr_[0-9a-f]{16}$/),
      state: "created",
      trackingNumber: stored.tracking_number,
      sendDate: new Date(String(stored.send_date)),
      expectedDeliveryDate: stored.expected_delivery_date,
      createdAt: new Date(String(stored.date_created)),
      events: [],
    });
    expect(letter.trackingNumber).toMatch(/^\d{22}$/);
  });

  it("makes one letter of a retried send with the same key, and another with another key", async () => {
    const first = await mailhouse.sendLetter(input());
    const retried = await mailhouse.sendLetter(input());
    expect(retried.id).toBe(first.id);
    expect(lob.letters.size).toBe(1);
    expect(lob.calls.map((c) => c.idempotencyKey)).toEqual(["mailing-41-respondent-1", "mailing-41-respondent-1"]);

    await mailhouse.sendLetter(input({ idempotencyKey: "mailing-41-respondent-2" }));
    expect(lob.letters.size).toBe(2);
  });

  it("reads a letter with GET /v1/letters/{id}: its tracking events in our terms, and a letter Lob has not (404) as null", async () => {
    const sent = await mailhouse.sendLetter(input());
    lob.scan(sent.id, "Mailed", new Date("2026-11-30T15:00:00Z"));
    lob.scan(sent.id, "In Transit", new Date("2026-12-01T09:00:00Z"));
    lob.scan(sent.id, "Delivered", new Date("2026-12-03T11:30:00Z"), {
      event: "delivered",
      description: "Package has been delivered.",
      action_required: false,
    });

    const letter = await mailhouse.getLetter(sent.id);
    expect(lob.callsTo("GET", `/v1/letters/${sent.id}`)[0]).toMatchObject({ user: LOB_API_KEY });
    expect(letter!.state).toBe("delivered");
    expect(letter!.events.map((e) => [e.providerType, e.state, e.occurredAt.toISOString()])).toEqual([
      ["Mailed", "mailed", "2026-11-30T15:00:00.000Z"],
      ["In Transit", "in_transit", "2026-12-01T09:00:00.000Z"],
      ["Delivered", "delivered", "2026-12-03T11:30:00.000Z"],
    ]);
    expect(await mailhouse.listEvents(sent.id)).toEqual(letter!.events);
    expect(await mailhouse.getLetter("ltr_0000000000000000")).toBeNull();
  });

  it("reads a returned letter with the carrier's reason", async () => {
    const sent = await mailhouse.sendLetter(input());
    lob.scan(sent.id, "Mailed", new Date("2026-11-30T15:00:00Z"));
    lob.scan(sent.id, "Returned to Sender", new Date("2026-12-05T10:00:00Z"), {
      event: "returned_to_sender",
      description: "Package is to be returned to sender.",
      notes: "Unclaimed",
      action_required: false,
    });
    const events = await mailhouse.listEvents(sent.id);
    expect(events.at(-1)).toMatchObject({
      state: "returned_to_sender",
      reason: "Package is to be returned to sender.. Unclaimed",
    });
  });

  it("cancels with DELETE /v1/letters/{id} before its send date; a second cancel is no error; after it, Lob's refusal", async () => {
    const sent = await mailhouse.sendLetter(input());
    await mailhouse.cancelLetter(sent.id);
    expect(lob.callsTo("DELETE", `/v1/letters/${sent.id}`)).toHaveLength(1);
    expect(lob.letters.get(sent.id)!.deleted).toBe(true);
    expect((await mailhouse.getLetter(sent.id))!.state).toBe("cancelled");
    await mailhouse.cancelLetter(sent.id);

    const late = await mailhouse.sendLetter(input({ idempotencyKey: "mailing-41-respondent-2" }));
    lob.now = () => new Date(Date.now() + 10 * 60_000);
    const error = await failure(mailhouse.cancelLetter(late.id));
    expect(error).toBeInstanceOf(MailRefused);
    expect(error).toMatchObject({ status: 422, providerCode: "not_deletable", message: "letter cannot be deleted" });
  });

  it("verifies an address with POST /v1/us_verifications and says when Lob corrected it", async () => {
    const typed = { ...respondent, line1: "1 Precinct Street", line2: undefined };
    const verified = await mailhouse.verifyAddress(typed);
    expect(lob.calls[0]).toMatchObject({ method: "POST", path: "/v1/us_verifications", user: LOB_API_KEY });
    expect(lob.calls[0]!.body).toEqual({
      primary_line: "1 Precinct Street",
      city: "Springfield",
      state: "IL",
      zip_code: "62701",
    });
    expect(verified).toEqual({
      deliverability: "deliverable",
      standardized: {
        name: "Officer Dana Reyes",
        line1: "1 PRECINCT ST",
        line2: undefined,
        city: "SPRINGFIELD",
        state: "IL",
        zip: "62701-1702",
        country: "US",
      },
      corrected: true,
      providerResult: "deliverable",
    });

    expect(await mailhouse.verifyAddress({ ...respondent, line1: "1 Precinct Way", line2: undefined })).toMatchObject({
      deliverability: "deliverable",
      corrected: false,
    });
    expect(await mailhouse.verifyAddress({ ...respondent, line1: "1 Missing Unit Way" })).toMatchObject({
      deliverability: "unit_missing",
    });
    expect(await mailhouse.verifyAddress({ ...respondent, line1: "9 Undeliverable Road" })).toMatchObject({
      deliverability: "undeliverable",
      standardized: null,
      corrected: false,
    });
  });

  it("reads a test key's empty verification as no match", async () => {
    const empty = { primary_line: "", secondary_line: "", last_line: "", deliverability: "", components: {} };
    mockServer.use(http.post(`${LOB_API}/v1/us_verifications`, () => HttpResponse.json(empty)));
    expect(await mailhouse.verifyAddress(respondent)).toEqual({
      deliverability: "undeliverable",
      standardized: null,
      corrected: false,
      providerResult: "",
    });
  });

  it("maps `{ error: {...} }` refusals to MailRefused with Lob's message and code", async () => {
    const error = await failure(mailhouse.sendLetter(input({ pdf: new TextEncoder().encode("not a pdf") })));
    expect(error).toBeInstanceOf(MailRefused);
    expect(error).toMatchObject({ status: 422, providerCode: "invalid_file", message: "file is invalid" });
    expect(lob.letters.size).toBe(0);
  });

  it("reports a wrong API key as a refusal (401), not an outage", async () => {
    const wrong = lobMailHouse({ ...settings, lobApiKey: "test_not_our_key" });
    const error = await failure(wrong.getLetter("ltr_0000000000000000"));
    expect(error).toBeInstanceOf(MailRefused);
    expect(error).toMatchObject({ status: 401, providerCode: "invalid_api_key" });
  });

  it.each(["server", "rate_limit", "network"] as const)(
    "reports a %s failure (a 500, a 429, a dropped connection) as MailHouseUnavailable, and sends nothing",
    async (kind) => {
      lob.failNext(kind);
      const error = await failure(mailhouse.sendLetter(input()));
      expect(error).toBeInstanceOf(MailHouseUnavailable);
      expect(error).toMatchObject({
        provider: "mailhouse",
        code: "provider_unavailable",
        message: "Mailing is not available just now. Please try again in a few minutes.",
      });
      expect(lob.letters.size).toBe(0);
    },
  );

  it("gives up on a call Lob does not answer in time; the retry with the same key is still one letter", async () => {
    const impatient = lobMailHouse(settings, { timeoutMs: 50 });
    lob.failNext("timeout");
    const started = Date.now();
    const error = await failure(impatient.sendLetter(input()));
    expect(error).toBeInstanceOf(MailHouseUnavailable);
    expect(((error as Error).cause as Error).message).toBe("Lob did not answer within 50 ms");
    expect(Date.now() - started).toBeLessThan(900);

    // The slow request was still made at Lob; the retry finds it by its key.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const [made] = [...lob.letters.keys()];
    expect(lob.letters.size).toBe(1);
    const retried = await mailhouse.sendLetter(input());
    expect(retried.id).toBe(made);
    expect(lob.letters.size).toBe(1);
  });

  it("reaches msw with an adapter made before msw started", async () => {
    await madeBeforeMsw.sendLetter(input());
    expect(lob.letters.size).toBe(1);
  });

  it("sends its requests to the address LOB_API_URL names, and the configuration chooses Lob with MAILHOUSE=lob", async () => {
    const local = "http://127.0.0.1:4011";
    mockServer.use(...lobHandlers(local));
    const config = loadConfig({
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "memberhall-lob-")),
      MAILHOUSE: "lob",
      LOB_API_KEY,
      LOB_WEBHOOK_SECRET,
      LOB_API_URL: local,
    });
    expect(config.mailhouse).toBe("lob");
    await lobMailHouse(config).getLetter("ltr_0000000000000000");
    expect(lob.calls.map((c) => `${c.origin} ${c.method} ${c.path}`)).toEqual([
      `${local} GET /v1/letters/ltr_0000000000000000`,
    ]);
  });
});
