import { createHmac, randomUUID } from "node:crypto";
import { delay, http, HttpResponse, type HttpHandler } from "msw";
import { FakeProvider, type ProviderCall } from "./fake-provider";

/**
 * A small Proof Business API in memory, on Proof's wire: JSON bodies, the `ApiKey` header,
 * `ot_…` transaction ids and `do_…` document ids, the transaction object as Proof sends it
 * (status and detailed_status, `signer_info` and `signers` with their
 * `transaction_access_link`), `{ "errors": [...] }` refusals with Proof's statuses, 404
 * "Transaction Not Found" for a deleted one. It keeps every request for tests to read, and
 * lets a test break the next request (5xx, 429, a dropped connection, no answer in time).
 */

/** Proof's test host (Fairfax), which PROOF_ENVIRONMENT=sandbox picks. */
export const PROOF_API = "https://api.fairfax.proof.com";
export const PROOF_API_KEY = "proof-test-api-key-memberhall-0000";
/** The webhook subscription's own signing key, so that tests tell it from the API key. */
export const PROOF_WEBHOOK_SECRET = "proof-test-signing-key-memberhall-0000";

export type ProofCall = ProviderCall & {
  query: Record<string, string>;
  apiKey: string | null;
  contentType: string | null;
  body: unknown;
};

type Failure = "server" | "rate_limit" | "network" | "timeout";
type Json = Record<string, unknown>;

type StoredDocument = { name: string; original: string; notarized: string | null };
type Stored = { transaction: Json; documents: Map<string, StoredDocument> };

const refusal = (status: number, ...errors: string[]) => HttpResponse.json({ errors }, { status });

/** Proof in memory. A test may break its next requests: a 500, a 429, a dropped connection, or no answer in time. */
export class FakeProof extends FakeProvider<ProofCall, Failure> {
  readonly transactions = new Map<string, Stored>();
  private counter = 0;

  reset() {
    this.resetRequests();
    this.transactions.clear();
  }

  private id(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.counter.toString(36).padStart(7, "0")}`;
  }

  // ── the signer's side, at Proof ──

  /** The signer met the notary and signed: completed, with the notarized file to fetch. */
  complete(id: string, detailedStatus = "completed") {
    const stored = this.transactions.get(id)!;
    for (const document of stored.documents.values()) {
      document.notarized = Buffer.concat([
        Buffer.from(document.original, "base64"),
        Buffer.from("\n% notarized by the fake Proof\n"),
      ]).toString("base64");
    }
    this.touch(stored, { status: "completed", detailed_status: detailedStatus });
  }

  /** Someone removed it in Proof's dashboard. */
  deleteAtProof(id: string) {
    this.transactions.delete(id);
  }

  private touch(stored: Stored, fields: Json) {
    Object.assign(stored.transaction, fields, { date_updated: new Date().toISOString() });
  }

  private accessLink(id: string, email: string) {
    const query = new URLSearchParams({ transaction_id: id.replace("_", ""), email, code: "LQNUSNMSHHGDLSXE" });
    return `https://app.fairfax.proof.com/activate-transaction?${query}`;
  }

  private signer(id: string, input: Json, active: boolean): Json {
    const email = String(input.email);
    return {
      email,
      first_name: input.first_name ?? null,
      last_name: input.last_name ?? null,
      ...(active ? { transaction_access_link: this.accessLink(id, email) } : {}),
      link_expired: false,
      signing_status: "incomplete",
    };
  }

  private documentsOf(stored: Stored) {
    return [...stored.documents].map(([id, document], position) => ({
      id,
      bundle_position: position,
      document_name: document.name,
      requirement: "notarization",
      notarization_required: true,
      processing_state: "done",
      completion_state: stored.transaction.status === "completed" ? "complete" : "incomplete",
    }));
  }

  view(stored: Stored): Json {
    return { ...stored.transaction, documents: this.documentsOf(stored) };
  }

  // ── the API ──

  create(body: Json) {
    const signers = Array.isArray(body.signers) ? (body.signers as Json[]) : [];
    if (!signers[0]?.email) return refusal(422, "Need at least 1 signer");
    const id = this.id("ot");
    const draft = body.draft === true;
    const documents = new Map<string, StoredDocument>();
    for (const document of Array.isArray(body.documents) ? (body.documents as Json[]) : []) {
      const resource = String(document.resource ?? "");
      if (!Buffer.from(resource, "base64").subarray(0, 5).equals(Buffer.from("%PDF-"))) {
        return refusal(422, "Document could not be processed");
      }
      documents.set(`do_${randomUUID()}`, {
        name: String(document.filename ?? "document.pdf"),
        original: resource,
        notarized: null,
      });
    }
    const now = new Date().toISOString();
    const signer = this.signer(id, signers[0], !draft);
    const transaction: Json = {
      id,
      attachments: [],
      cost: 0,
      date_created: now,
      date_updated: now,
      detailed_status: draft ? "draft" : "sent_to_signer",
      external_id: body.external_id ?? null,
      notarization_records: [],
      organization_id: "or_d3gg34g",
      payer: "sender",
      signer_info: signer,
      signers: [signer],
      status: draft ? "started" : "sent",
      transaction_name: body.transaction_name ?? "Untitled Transaction",
    };
    const stored = { transaction, documents };
    this.transactions.set(id, stored);
    return HttpResponse.json(this.view(stored));
  }

  update(id: string, body: Json) {
    const stored = this.transactions.get(id);
    if (!stored) return refusal(404, "Transaction Not Found");
    if (stored.transaction.status !== "started") return refusal(422, "Only draft transactions can be updated");
    const input = Array.isArray(body.signers) ? (body.signers as Json[])[0] : undefined;
    if (input) {
      const signer = this.signer(id, input, false);
      this.touch(stored, { signer_info: signer, signers: [signer] });
    }
    return HttpResponse.json(this.view(stored));
  }

  activate(id: string) {
    const stored = this.transactions.get(id);
    if (!stored) return refusal(404, "Transaction Not Found");
    if (stored.transaction.status !== "started") return refusal(422, "Transaction has already been sent");
    const signer = this.signer(id, stored.transaction.signer_info as Json, true);
    this.touch(stored, { status: "sent", detailed_status: "sent_to_signer", signer_info: signer, signers: [signer] });
    return HttpResponse.json(this.view(stored));
  }

  remove(id: string) {
    const stored = this.transactions.get(id);
    if (!stored) return refusal(404, "Transaction Not Found");
    if (stored.transaction.status === "completed") {
      return refusal(422, "Transaction has already been completed by at least 1 signer.");
    }
    this.transactions.delete(id);
    return HttpResponse.json({ message: `Deleted Transaction ${id} successfully` });
  }

  document(id: string, documentId: string, encoding: string | undefined) {
    const stored = this.transactions.get(id);
    const document = stored?.documents.get(documentId);
    if (!stored || !document) return refusal(404, "Transaction Not Found");
    if (encoding !== "base64") return refusal(400, "Unsupported encoding");
    return HttpResponse.json({
      ...this.documentsOf(stored).find((d) => d.id === documentId),
      data: document.notarized ?? document.original,
    });
  }
}

export const proof = new FakeProof();

async function callOf(request: Request): Promise<ProofCall> {
  const url = new URL(request.url);
  const text = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return {
    origin: url.origin,
    method: request.method,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    apiKey: request.headers.get("apikey"),
    contentType: request.headers.get("content-type"),
    body,
  };
}

/** Proof's API at `base`: its host, or the local one PROOF_API_BASE names. */
export function proofHandlers(base = PROOF_API, fake = proof): HttpHandler[] {
  return [
    http.all(`${base}/v1/*`, async ({ request }) => {
      const call = await callOf(request);
      const failure = fake.receive(call);
      if (failure === "network") return HttpResponse.error();
      if (failure === "timeout") await delay(1_000);
      if (failure === "server") return refusal(500, "Internal Server Error");
      if (failure === "rate_limit") return refusal(429, "Rate limit exceeded");
      if (call.apiKey !== PROOF_API_KEY) return refusal(401, "Not Authenticated");
      const body = (call.body ?? {}) as Json;
      const [, , , id, sub, documentId] = call.path.split("/");
      if (call.path === "/v1/transactions" && call.method === "POST") return fake.create(body);
      if (!id) return refusal(404, "Not Found");
      const transactionId = decodeURIComponent(id);
      if (call.method === "GET" && sub === undefined) {
        const stored = fake.transactions.get(transactionId);
        return stored ? HttpResponse.json(fake.view(stored)) : refusal(404, "Transaction Not Found");
      }
      if (call.method === "PUT" && sub === undefined) return fake.update(transactionId, body);
      if (call.method === "DELETE" && sub === undefined) return fake.remove(transactionId);
      if (call.method === "POST" && sub === "notarization_ready") return fake.activate(transactionId);
      if (call.method === "GET" && sub === "documents" && documentId) {
        return fake.document(transactionId, decodeURIComponent(documentId), call.query.encoding);
      }
      return refusal(404, "Not Found");
    }),
  ];
}

export const handlers = proofHandlers();

/** A webhook delivery as Proof signs it: hex HMAC-SHA256 of the raw body in X-Notarize-Signature. */
export function signedDelivery(body: unknown, secret = PROOF_WEBHOOK_SECRET) {
  const rawBody = typeof body === "string" ? body : JSON.stringify(body);
  const signature = createHmac("sha256", secret).update(rawBody).digest("hex");
  return { rawBody, headers: new Headers({ "content-type": "application/json", "x-notarize-signature": signature }) };
}
