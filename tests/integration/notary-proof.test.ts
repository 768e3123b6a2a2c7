import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "~/config/config.server";
import { proofNotary, readProofWebhook, type ProofSettings } from "~/providers/notary/proof.server";
import {
  InvalidNotaryWebhook,
  NotaryRefused,
  NotaryUnavailable,
  type CreateTransactionInput,
  type NotaryProvider,
} from "~/providers/notary/types";
import { mockServer } from "../mocks/server";
import { PROOF_API, PROOF_API_KEY, PROOF_WEBHOOK_SECRET, proof, proofHandlers, signedDelivery } from "../mocks/proof";

const settings: ProofSettings = {
  proofApiKey: PROOF_API_KEY,
  proofWebhookSecret: PROOF_WEBHOOK_SECRET,
  proofApiBase: PROOF_API,
};

// Made as the module loads, before msw starts (tests/setup/msw.ts): it must still reach it.
const madeBeforeMsw = proofNotary(settings);

let pdf: Uint8Array;
let notary: NotaryProvider;

beforeAll(async () => {
  const document = await PDFDocument.create();
  document.addPage().drawText("Notice of liability");
  pdf = await document.save();
});

beforeEach(() => {
  proof.reset();
  notary = proofNotary(settings);
});

const input = (overrides: Partial<CreateTransactionInput> = {}): CreateTransactionInput => ({
  pdf,
  documentName: "notice-round-1.pdf",
  signer: { name: "Ada King Lovelace", email: "ada@example.org" },
  draft: false,
  idempotencyKey: "notarization-41",
  metadata: { notice_id: "41" },
  ...overrides,
});

/** The app's configuration with NOTARY=proof and these settings. */
const proofConfig = (env: Record<string, string>) =>
  loadConfig({
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "memberhall-proof-")),
    NOTARY: "proof",
    PROOF_API_KEY,
    PROOF_WEBHOOK_SECRET,
    ...env,
  });

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected a failure"),
    (e: unknown) => e,
  );

describe("Proof adapter (contract, against msw)", () => {
  it("creates a transaction: POST /v1/transactions with the ApiKey header, the signer and the PDF in base64", async () => {
    const made = await notary.createTransaction(input());

    const [call] = proof.calls;
    expect(proof.calls).toHaveLength(1);
    expect(call).toMatchObject({
      origin: PROOF_API,
      method: "POST",
      path: "/v1/transactions",
      apiKey: PROOF_API_KEY,
      contentType: "application/json",
    });
    expect(call!.body).toEqual({
      signers: [{ email: "ada@example.org", first_name: "Ada King", last_name: "Lovelace" }],
      documents: [
        { resource: Buffer.from(pdf).toString("base64"), requirement: "notarization", filename: "notice-round-1.pdf" },
      ],
      draft: false,
      external_id: "notarization-41",
      transaction_name: "notice-round-1.pdf",
    });
    expect(made).toEqual({
      id: expect.stringMatching(/^ot_\w+$/),
      status: "sent",
      detailedStatus: "sent_to_signer",
      accessUrl: expect.stringMatching(/^https:\/\/app\.fairfax\.proof\.com\/activate-transaction\?/),
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
    });
    expect(proof.transactions.get(made.id)!.transaction.external_id).toBe("notarization-41");
  });

  it("creates a draft (Proof's 'started', no access link yet) and sends it through notarization_ready", async () => {
    const draft = await notary.createTransaction(input({ draft: true }));
    expect(draft).toMatchObject({ status: "draft", detailedStatus: "draft", accessUrl: null });
    expect(proof.calls[0]!.body).toMatchObject({ draft: true });

    const sent = await notary.updateTransaction(draft.id, { send: true });
    expect(proof.calls.slice(1).map((c) => `${c.method} ${c.path}`)).toEqual([
      `POST /v1/transactions/${draft.id}/notarization_ready`,
    ]);
    expect(proof.calls[1]!.apiKey).toBe(PROOF_API_KEY);
    expect(sent).toMatchObject({ id: draft.id, status: "sent", detailedStatus: "sent_to_signer" });
    expect(sent!.accessUrl).toContain("activate-transaction");
  });

  it("changes a draft's signer with PUT /v1/transactions/{id}", async () => {
    const draft = await notary.createTransaction(input({ draft: true }));
    const changed = await notary.updateTransaction(draft.id, {
      signer: { name: "Grace Hopper", email: "g@example.org" },
    });
    const put = proof.callsTo("PUT", `/v1/transactions/${draft.id}`);
    expect(put).toHaveLength(1);
    expect(put[0]!.body).toEqual({ signers: [{ email: "g@example.org", first_name: "Grace", last_name: "Hopper" }] });
    expect(changed).toMatchObject({ status: "draft" });
    expect(proof.transactions.get(draft.id)!.transaction.signer_info).toMatchObject({ email: "g@example.org" });
  });

  it("refuses to change a transaction that was sent, with Proof's message", async () => {
    const sent = await notary.createTransaction(input());
    const error = await failure(notary.updateTransaction(sent.id, { signer: { name: "X Y", email: "x@example.org" } }));
    expect(error).toBeInstanceOf(NotaryRefused);
    expect(error).toMatchObject({ status: 422, message: "Only draft transactions can be updated" });
  });

  it("reads a transaction with GET /v1/transactions/{id}, and reads a deleted one (404) as null", async () => {
    const made = await notary.createTransaction(input());
    proof.complete(made.id);
    expect(await notary.getTransaction(made.id)).toMatchObject({
      id: made.id,
      status: "completed",
      detailedStatus: "completed",
    });
    expect(proof.callsTo("GET", `/v1/transactions/${made.id}`)[0]!.apiKey).toBe(PROOF_API_KEY);

    proof.deleteAtProof(made.id);
    expect(await notary.getTransaction(made.id)).toBeNull();
    expect(await notary.updateTransaction(made.id, { send: true })).toBeNull();
    expect(await notary.notarizedDocument(made.id)).toBeNull();
  });

  it("deletes with DELETE /v1/transactions/{id}; one gone already is no error; a completed one is refused", async () => {
    const made = await notary.createTransaction(input());
    await notary.deleteTransaction(made.id);
    expect(proof.callsTo("DELETE", `/v1/transactions/${made.id}`)).toHaveLength(1);
    expect(proof.transactions.has(made.id)).toBe(false);
    await notary.deleteTransaction(made.id);

    const done = await notary.createTransaction(input({ idempotencyKey: "notarization-42" }));
    proof.complete(done.id);
    const error = await failure(notary.deleteTransaction(done.id));
    expect(error).toBeInstanceOf(NotaryRefused);
    expect((error as Error).message).toBe("Transaction has already been completed by at least 1 signer.");
  });

  it("fetches the notarized PDF in base64 once completed, and nothing before", async () => {
    const made = await notary.createTransaction(input());
    expect(await notary.notarizedDocument(made.id)).toBeNull();
    expect(proof.calls.filter((c) => c.path.includes("/documents/"))).toHaveLength(0);

    proof.complete(made.id);
    const notarized = await notary.notarizedDocument(made.id);
    const [documentId] = proof.transactions.get(made.id)!.documents.keys();
    const fetched = proof.calls.filter((c) => c.path.includes("/documents/"));
    expect(fetched.map((c) => [c.method, c.path, c.query])).toEqual([
      ["GET", `/v1/transactions/${made.id}/documents/${documentId}`, { encoding: "base64" }],
    ]);
    expect(Buffer.from(notarized!).toString("latin1")).toContain("% notarized by the fake Proof");
    expect(Buffer.from(notarized!).subarray(0, pdf.length).equals(Buffer.from(pdf))).toBe(true);
  });

  it("reads completed_with_rejections as cancelled: the notary rejected the document", async () => {
    const made = await notary.createTransaction(input());
    proof.complete(made.id);
    Object.assign(proof.transactions.get(made.id)!.transaction, {
      status: "completed_with_rejections",
      detailed_status: "completed_with_rejections",
    });
    expect(await notary.getTransaction(made.id)).toMatchObject({
      status: "cancelled",
      detailedStatus: "completed_with_rejections",
    });
  });

  it("maps `{ errors: [...] }` refusals to NotaryRefused with Proof's messages", async () => {
    const error = await failure(notary.createTransaction(input({ pdf: new TextEncoder().encode("not a pdf") })));
    expect(error).toBeInstanceOf(NotaryRefused);
    expect(error).toMatchObject({ status: 422, message: "Document could not be processed" });
  });

  it("reports a wrong API key as a refusal (401), not an outage", async () => {
    const wrong = proofNotary({ ...settings, proofApiKey: "not-our-key" });
    const error = await failure(wrong.getTransaction("ot_1234567"));
    expect(error).toBeInstanceOf(NotaryRefused);
    expect(error).toMatchObject({ status: 401, message: "Not Authenticated" });
  });

  it.each(["server", "rate_limit", "network"] as const)(
    "reports a %s failure (a 500, a 429, a dropped connection) as NotaryUnavailable",
    async (kind) => {
      proof.failNext(kind);
      const error = await failure(notary.createTransaction(input()));
      expect(error).toBeInstanceOf(NotaryUnavailable);
      expect((error as Error).message).toBe(
        "Notarize Online is not available just now. Please try again in a few minutes.",
      );
      expect(proof.transactions.size).toBe(0);
    },
  );

  it("gives up on a call Proof does not answer in time", async () => {
    const impatient = proofNotary(settings, { timeoutMs: 50 });
    proof.failNext("timeout");
    const started = Date.now();
    const error = await failure(impatient.getTransaction("ot_1234567"));
    expect(error).toBeInstanceOf(NotaryUnavailable);
    expect(((error as Error).cause as Error).message).toBe("Proof did not answer within 50 ms");
    expect(Date.now() - started).toBeLessThan(900);
  });

  it("reaches msw with an adapter made before msw started", async () => {
    await madeBeforeMsw.createTransaction(input());
    expect(proof.transactions.size).toBe(1);
  });

  it("sends its requests to the address PROOF_API_BASE names, over what PROOF_ENVIRONMENT picks", async () => {
    const local = "http://127.0.0.1:4010";
    mockServer.use(...proofHandlers(local));
    await proofNotary(proofConfig({ PROOF_ENVIRONMENT: "production", PROOF_API_BASE: local })).createTransaction(
      input(),
    );
    expect(proof.calls.map((c) => `${c.origin} ${c.method} ${c.path}`)).toEqual([`${local} POST /v1/transactions`]);
  });

  it("reaches Proof's production host with PROOF_ENVIRONMENT=production", async () => {
    mockServer.use(...proofHandlers("https://api.proof.com"));
    await proofNotary(proofConfig({ PROOF_ENVIRONMENT: "production" })).getTransaction("ot_1234567");
    expect(proof.calls.map((c) => `${c.origin} ${c.path}`)).toEqual([
      "https://api.proof.com /v1/transactions/ot_1234567",
    ]);
  });
});

describe("Proof webhooks", () => {
  const completed = {
    event: "transaction.completed",
    data: { transaction_id: "ot_n87o6r4", date_occurred: "2026-11-20T10:00:00Z" },
  };

  it("reads a delivery signed with the webhook's key into our event", () => {
    const { rawBody, headers } = signedDelivery(completed);
    const event = notary.readWebhook(rawBody, headers);
    expect(event).toEqual({
      id: expect.stringMatching(/^proof_[0-9a-f]{40}$/),
      provider: "proof",
      providerType: "transaction.completed",
      transactionId: "ot_n87o6r4",
      status: "completed",
      detailedStatus: null,
      deleted: false,
      occurredAt: new Date("2026-11-20T10:00:00Z"),
    });
  });

  it("gives a retried delivery the same id, and another delivery another", () => {
    const first = signedDelivery(completed);
    const again = signedDelivery(completed);
    const other = signedDelivery({ ...completed, event: "transaction.released" });
    expect(notary.readWebhook(again.rawBody, again.headers).id).toBe(
      notary.readWebhook(first.rawBody, first.headers).id,
    );
    expect(notary.readWebhook(other.rawBody, other.headers).id).not.toBe(
      notary.readWebhook(first.rawBody, first.headers).id,
    );
  });

  it("refuses a delivery signed with another key (the API key, when the subscription has its own)", () => {
    const { rawBody, headers } = signedDelivery(completed, PROOF_API_KEY);
    expect(() => notary.readWebhook(rawBody, headers)).toThrow(InvalidNotaryWebhook);
  });

  it("refuses a delivery whose body was changed after signing", () => {
    const { headers } = signedDelivery(completed);
    const forged = JSON.stringify({ ...completed, data: { ...completed.data, transaction_id: "ot_someone" } });
    expect(() => notary.readWebhook(forged, headers)).toThrow("The delivery's signature does not match its body");
  });

  it("refuses a delivery without a signature, or with one that is not hex HMAC-SHA256", () => {
    const { rawBody } = signedDelivery(completed);
    expect(() => notary.readWebhook(rawBody, new Headers())).toThrow("The delivery has no X-Notarize-Signature header");
    for (const signature of ["abc", "z".repeat(64), `${"0".repeat(64)}00`]) {
      expect(() => notary.readWebhook(rawBody, new Headers({ "x-notarize-signature": signature }))).toThrow(
        InvalidNotaryWebhook,
      );
    }
  });

  it("has no staleness to check: Proof's signature carries no timestamp, and a retry may come two days late", () => {
    const late = { ...completed, data: { ...completed.data, date_occurred: "2026-01-01T00:00:00Z" } };
    const { rawBody, headers } = signedDelivery(late);
    expect(notary.readWebhook(rawBody, headers).occurredAt).toEqual(new Date("2026-01-01T00:00:00Z"));
  });

  it("refuses a signed body that is not a Proof event", () => {
    for (const body of ["not json", JSON.stringify({ data: {} })]) {
      const { rawBody, headers } = signedDelivery(body);
      expect(() => notary.readWebhook(rawBody, headers)).toThrow(InvalidNotaryWebhook);
    }
  });

  it("reads a deletion, an event with no status in its name, and an event about no transaction", () => {
    const read = (body: unknown) => {
      const { rawBody, headers } = signedDelivery(body);
      return readProofWebhook(PROOF_WEBHOOK_SECRET, rawBody, headers);
    };
    expect(read({ event: "transaction.deleted", data: { transaction_id: "ot_1" } })).toMatchObject({
      transactionId: "ot_1",
      deleted: true,
      status: null,
    });
    expect(read({ event: "transaction.document.processed", data: { transaction_id: "ot_1" } })).toMatchObject({
      status: null,
      deleted: false,
    });
    expect(
      read({ event: "transaction_status_update", data: { transaction_id: "ot_1", status: "received" } }),
    ).toMatchObject({ status: "in_progress", detailedStatus: "received" });
    expect(read({ event: "notary.compliant", data: { notary_id: "nt_1" } })).toMatchObject({ transactionId: null });
  });
});
