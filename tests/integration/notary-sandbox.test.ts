import type { AppLoadContext } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream, type PDFObject } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { sandboxObjects } from "~/db/schema";
import { notaryMark, SANDBOX_DISCLAIMER } from "~/providers/notary/certificate.server";
import { SANDBOX_TRANSACTION_ID } from "~/providers/notary/sandbox.server";
import { NotaryRefused, type CreateTransactionInput, type SandboxNotary } from "~/providers/notary/types";
import { loader as documentLoader } from "~/routes/notary.sandbox.$transactionId.document";
import { action, loader } from "~/routes/notary.sandbox.$transactionId";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";

/** The text a page draws with Tj, read from its content streams (pdf-lib writes standard-font text as hex). */
function pageText(document: PDFDocument, index: number): string {
  const contents = document.getPage(index).node.Contents();
  const streams: (PDFObject | undefined)[] =
    contents instanceof PDFArray ? contents.asArray().map((ref) => document.context.lookup(ref)) : [contents];
  const lines: string[] = [];
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) continue;
    const source = Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1");
    for (const match of source.matchAll(/<([0-9A-Fa-f]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
      lines.push(match[1] !== undefined ? Buffer.from(match[1], "hex").toString("latin1") : match[2]!);
    }
  }
  return lines.join("\n");
}

async function twoPagePdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  document.addPage([612, 792]).drawText("Notice of liability, page one");
  document.addPage([612, 792]).drawText("Page two");
  return document.save();
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail("expected a refusal"),
    (error: unknown) => error as NotaryRefused,
  );

describe.each(drivers)("the sandbox notary (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let services: AppServices;
  let notary: SandboxNotary;
  let pdf: Uint8Array;
  let keys = 0;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    context = testContext(database, { BASE_URL: "https://members.example.org" });
    services = context.app!;
    notary = services.providers.notarySandbox!;
    pdf = await twoPagePdf();
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const input = (overrides: Partial<CreateTransactionInput> = {}): CreateTransactionInput => ({
    pdf,
    documentName: "notice-round-1.pdf",
    signer: { name: "Ada Lovelace", email: "ada@example.org" },
    draft: false,
    idempotencyKey: `notarization-${++keys}`,
    metadata: { notice_id: String(keys) },
    ...overrides,
  });

  /** Takes every event not delivered yet, as the app's handler will, and marks it delivered. */
  async function deliver() {
    const events = await notary.undeliveredEvents();
    for (const event of events) await notary.markDelivered(event.id);
    return events;
  }

  it("is the notary by default, chosen once at boot; NOTARY=proof leaves no sandbox", () => {
    expect(services.providers.notary).toBe(notary);
    expect(notary.name).toBe("sandbox");
    const withProof = testContext(database, {
      NOTARY: "proof",
      PROOF_API_KEY: "proof-test-api-key",
      PROOF_WEBHOOK_SECRET: "proof-test-signing-key",
    }).app!;
    expect(withProof.providers.notary.name).toBe("proof");
    expect(withProof.providers.notarySandbox).toBeNull();
  });

  it("creates a transaction sent to its signer, with an access URL holding 128 random bits", async () => {
    const made = await notary.createTransaction(input());
    expect(made.id).toMatch(SANDBOX_TRANSACTION_ID);
    expect(Buffer.from(made.id.slice("ot_sb_".length), "base64url")).toHaveLength(16);
    expect(made).toMatchObject({
      status: "sent",
      detailedStatus: "sent_to_signer",
      accessUrl: `https://members.example.org/notary/sandbox/${made.id}`,
    });
    expect(await notary.getTransaction(made.id)).toEqual(made);
    const [row] = await database.db
      .select()
      .from(sandboxObjects)
      .where(and(eq(sandboxObjects.id, made.id), eq(sandboxObjects.type, "notary_transaction")));
    expect(row!.data).toMatchObject({ metadata: { notice_id: String(keys) }, signer: { email: "ada@example.org" } });
  });

  it("makes one transaction for one idempotency key", async () => {
    const once = input();
    const first = await notary.createTransaction(once);
    const again = await notary.createTransaction(once);
    expect(again.id).toBe(first.id);
    expect((await notary.createTransaction(input())).id).not.toBe(first.id);
  });

  it("makes one transaction for two creates at once with one key", async () => {
    const once = input();
    const [a, b] = await Promise.all([notary.createTransaction(once), notary.createTransaction(once)]);
    expect(b.id).toBe(a.id);
  });

  it("makes a new transaction for a key whose transaction was deleted, by the app or at the provider", async () => {
    for (const remove of [notary.deleteTransaction, notary.deleteAtProvider]) {
      const once = input();
      const first = await notary.createTransaction(once);
      await remove(first.id);
      const [again, twice] = await Promise.all([notary.createTransaction(once), notary.createTransaction(once)]);
      expect(again.id).not.toBe(first.id);
      expect(twice.id).toBe(again.id);
      expect(await notary.getTransaction(again.id)).toMatchObject({ status: "sent" });
      expect(await notary.getTransaction(first.id)).toBeNull();
      expect((await notary.createTransaction(once)).id).toBe(again.id);
    }
  });

  it("refuses a document that is not a PDF, as Proof does", async () => {
    const error = await refusal(notary.createTransaction(input({ pdf: new TextEncoder().encode("hello") })));
    expect(error).toBeInstanceOf(NotaryRefused);
    expect(error.status).toBe(422);
  });

  it("keeps a draft without an access URL until it is sent; only a draft's signer can change", async () => {
    const draft = await notary.createTransaction(input({ draft: true }));
    expect(draft).toMatchObject({ status: "draft", detailedStatus: "draft", accessUrl: null });
    const changed = await notary.updateTransaction(draft.id, {
      signer: { name: "Grace Hopper", email: "g@example.org" },
    });
    expect(changed).toMatchObject({ status: "draft" });
    const sent = await notary.updateTransaction(draft.id, { send: true });
    expect(sent).toMatchObject({ status: "sent", detailedStatus: "sent_to_signer" });
    expect(sent!.accessUrl).toBe(`https://members.example.org/notary/sandbox/${draft.id}`);
    expect(await notary.updateTransaction(draft.id, { send: true })).toMatchObject({ status: "sent" });
    const error = await refusal(notary.updateTransaction(draft.id, { signer: { name: "X", email: "x@example.org" } }));
    expect(error.status).toBe(422);
    const view = await notary.signerView(draft.id);
    expect(view).toMatchObject({ kind: "open", signerName: "Grace Hopper" });
  });

  it("walks Proof's steps as the signer acts: received, the meeting, completed", async () => {
    const made = await notary.createTransaction(input());
    expect(await refusal(notary.sign(made.id))).toMatchObject({ message: "Meet the notary before you sign." });

    expect(await notary.signerView(made.id)).toMatchObject({
      kind: "open",
      step: "meet",
      documentName: "notice-round-1.pdf",
      signerName: "Ada Lovelace",
      transaction: { status: "in_progress", detailedStatus: "received" },
    });
    expect(await notary.meetNotary(made.id)).toMatchObject({
      status: "in_progress",
      detailedStatus: "meeting_in_progress",
    });
    expect(await notary.signerView(made.id)).toMatchObject({ step: "sign" });
    const signed = await notary.sign(made.id, new Date("2026-11-20T10:30:00Z"));
    expect(signed).toMatchObject({ status: "completed", detailedStatus: "completed" });
    expect(await notary.signerView(made.id)).toMatchObject({ step: "done" });
    // A second click changes nothing.
    expect(await notary.sign(made.id)).toMatchObject({ status: "completed", updatedAt: signed!.updatedAt });
    expect(await notary.meetNotary(made.id)).toMatchObject({ status: "completed" });
  });

  it("notarizes: the original pages, each with the notary's mark, then a certificate page naming the signer, the date and the transaction", async () => {
    const made = await notary.createTransaction(input({ signer: { name: "José Müller", email: "jm@example.org" } }));
    expect(await notary.notarizedDocument(made.id)).toBeNull();
    await notary.meetNotary(made.id);
    await notary.sign(made.id, new Date("2026-11-20T10:30:00Z"));

    const notarized = await notary.notarizedDocument(made.id);
    const document = await PDFDocument.load(notarized!);
    const original = await PDFDocument.load(pdf);
    expect(document.getPageCount()).toBe(original.getPageCount() + 1);
    const certificate = pageText(document, document.getPageCount() - 1);
    expect(certificate).toContain("Certificate of notarial act");
    expect(certificate).toContain("Signer: José Müller <jm@example.org>");
    expect(certificate).toContain("Signed and notarized: 2026-11-20 10:30 UTC");
    expect(certificate).toContain(`Transaction: ${made.id}`);
    expect(certificate).toContain("Sandbox notary");
    expect(certificate).toContain("not a legal notarization");
    // The notary's mark on every page, the certificate's too; the round stamp on the document's last page only.
    const mark = notaryMark({ transactionId: made.id, signedAt: new Date("2026-11-20T10:30:00Z") });
    for (let i = 0; i < document.getPageCount(); i++) expect(pageText(document, i)).toContain(mark);
    expect(pageText(document, 1)).toContain("SANDBOX");
    expect(pageText(document, 1)).toContain("NOT LEGAL");
    expect(pageText(document, 0)).not.toContain("SANDBOX");
    expect(document.getSubject()).toBe(SANDBOX_DISCLAIMER);
    expect(document.getKeywords()).toContain(made.id);

    const shown = await notary.signerDocument(made.id);
    expect(shown).toMatchObject({ notarized: true, fileName: "notarized-notice-round-1.pdf" });
    expect(Buffer.from(shown!.pdf).equals(Buffer.from(notarized!))).toBe(true);
  });

  it("deletes: the transaction is gone (null), its page says so, and a second delete is no error", async () => {
    const made = await notary.createTransaction(input());
    await notary.deleteTransaction(made.id);
    expect(await notary.getTransaction(made.id)).toBeNull();
    expect(await notary.updateTransaction(made.id, { send: true })).toBeNull();
    expect(await notary.meetNotary(made.id)).toBeNull();
    expect(await notary.signerDocument(made.id)).toBeNull();
    expect(await notary.signerView(made.id)).toEqual({ kind: "removed" });
    await notary.deleteTransaction(made.id);
    await notary.deleteTransaction("ot_sb_AAAAAAAAAAAAAAAAAAAAAA");
    await notary.deleteTransaction("not-an-id");
    const [document] = await database.db
      .select()
      .from(sandboxObjects)
      .where(eq(sandboxObjects.id, `${made.id}.pdf`));
    expect(document).toBeUndefined();
  });

  it("keeps a completed transaction from the app's delete, as Proof does, but not from the provider's own side", async () => {
    const made = await notary.createTransaction(input());
    await notary.meetNotary(made.id);
    await notary.sign(made.id);
    const error = await refusal(notary.deleteTransaction(made.id));
    expect(error).toMatchObject({
      status: 422,
      message: "Transaction has already been completed by at least 1 signer.",
    });
    await notary.deleteAtProvider(made.id);
    expect(await notary.getTransaction(made.id)).toBeNull();
    expect(await notary.notarizedDocument(made.id)).toBeNull();
  });

  it("keeps its events until taken, in order, and hands each over once", async () => {
    await deliver();
    const made = await notary.createTransaction(input());
    await notary.signerView(made.id);
    await notary.signerView(made.id);
    await notary.meetNotary(made.id);
    await notary.sign(made.id);
    await notary.deleteAtProvider(made.id);

    const events = await notary.undeliveredEvents();
    expect(events.map((e) => [e.providerType, e.status, e.detailedStatus, e.deleted])).toEqual([
      ["transaction.sent_to_signer", "sent", "sent_to_signer", false],
      ["transaction.updated", "in_progress", "received", false],
      ["transaction.meeting.created", "in_progress", "meeting_in_progress", false],
      ["transaction.completed", "completed", "completed", false],
      ["transaction.deleted", null, null, true],
    ]);
    expect(events.every((e) => e.transactionId === made.id && e.provider === "sandbox")).toBe(true);
    expect(events[0]!.occurredAt).toBeInstanceOf(Date);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);

    await notary.markDelivered(events[0]!.id);
    expect((await notary.undeliveredEvents()).map((e) => e.id)).toEqual(events.slice(1).map((e) => e.id));
    expect(await deliver()).toHaveLength(4);
    expect(await notary.undeliveredEvents()).toEqual([]);
  });

  it("sends no webhooks", () => {
    expect(() => notary.readWebhook("{}", new Headers())).toThrow("The sandbox notary sends no webhooks");
  });

  describe("the signer page, /notary/sandbox/{id}", () => {
    const page = (id: string, search = "") => `http://localhost/notary/sandbox/${id}${search}`;
    const open = (id: string, search = "") =>
      loader({ request: new Request(page(id, search)), params: { transactionId: id }, context });
    const post = (id: string, fields: Record<string, string>) =>
      action({
        request: new Request(page(id), {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields),
        }),
        params: { transactionId: id },
        context,
      });
    const thrown = (promise: Promise<unknown>) =>
      promise.then(
        () => expect.fail("expected a thrown response"),
        (response: Response) => response,
      );

    it("opens to a visitor who has its URL, with the document in a frame and the first step to take", async () => {
      const made = await notary.createTransaction(input());
      const response = await open(made.id, "?return=%2Fnol%2Fcreator%2Ftraffic-stop%2Fnotarize");
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        kind: "open",
        transactionId: made.id,
        documentName: "notice-round-1.pdf",
        signerName: "Ada Lovelace",
        step: "meet",
        detailedStatus: "received",
        documentUrl: `/notary/sandbox/${made.id}/document`,
        community: expect.any(String),
        returnTo: "/nol/creator/traffic-stop/notarize",
        returnParam: "/nol/creator/traffic-stop/notarize",
      });
    });

    it("answers 404 for an unknown or malformed id, and when the sandbox is not the notary", async () => {
      expect((await thrown(open("ot_sb_AAAAAAAAAAAAAAAAAAAAAA"))).status).toBe(404);
      expect((await thrown(open("../../admin"))).status).toBe(404);
      expect((await thrown(post("ot_sb_AAAAAAAAAAAAAAAAAAAAAA", { intent: "sign" }))).status).toBe(404);
      const made = await notary.createTransaction(input());
      const withProof = testContext(database, {
        NOTARY: "proof",
        PROOF_API_KEY: "proof-test-api-key",
        PROOF_WEBHOOK_SECRET: "proof-test-signing-key",
      });
      const request = new Request(page(made.id));
      const error = await thrown(loader({ request, params: { transactionId: made.id }, context: withProof }));
      expect(error.status).toBe(404);
    });

    it("takes the meeting and the signature as plain form posts (no JavaScript), keeping a safe return path", async () => {
      const made = await notary.createTransaction(input());
      const met = await post(made.id, { intent: "meet", return: "/nol/creator/traffic-stop/notarize" });
      expect(met.status).toBe(302);
      expect(met.headers.get("Location")).toBe(
        `/notary/sandbox/${made.id}?return=%2Fnol%2Fcreator%2Ftraffic-stop%2Fnotarize`,
      );
      const signed = await post(made.id, { intent: "sign", return: "/nol/creator/traffic-stop/notarize" });
      expect(signed.status).toBe(302);
      expect(await notary.getTransaction(made.id)).toMatchObject({ status: "completed" });
      expect(await (await open(made.id, "?return=%2Fnol%2Fcreator%2Ftraffic-stop%2Fnotarize")).json()).toMatchObject({
        step: "done",
        returnTo: "/nol/creator/traffic-stop/notarize",
      });
    });

    it("shows the refusal of a step taken out of order, and refuses an unknown step", async () => {
      const made = await notary.createTransaction(input());
      const early = await post(made.id, { intent: "sign" });
      expect(early.status).toBe(409);
      expect(await early.json()).toEqual({ error: "Meet the notary before you sign." });
      const unknown = await post(made.id, { intent: "notarize-everything" });
      expect(unknown.status).toBe(400);
      expect(await notary.getTransaction(made.id)).toMatchObject({ status: "sent" });
    });

    it.each([
      ["//evil.example/phish", "/"],
      ["https://evil.example/", "/"],
      ["/\\evil.example", "/"],
      ["javascript:alert(1)", "/"],
      ["", "/"],
    ])("never leads back to an unsafe return %j (it goes to %s)", async (value, expected) => {
      const made = await notary.createTransaction(input());
      const data = await (await open(made.id, `?${new URLSearchParams({ return: value })}`)).json();
      expect(data).toMatchObject({ returnTo: expected, returnParam: null });
      const moved = await post(made.id, { intent: "meet", return: value });
      expect(moved.headers.get("Location")).toBe(`/notary/sandbox/${made.id}`);
    });

    it("says a deleted transaction was removed (410)", async () => {
      const made = await notary.createTransaction(input());
      await notary.deleteAtProvider(made.id);
      const response = await open(made.id);
      expect(response.status).toBe(410);
      expect(await response.json()).toMatchObject({
        kind: "removed",
        message: "This document was removed at Notarize Online",
        returnTo: "/",
      });
    });

    it("serves the document as a PDF that only this site may frame, the notarized one once signed", async () => {
      const made = await notary.createTransaction(input());
      const get = (id: string) =>
        documentLoader({ request: new Request(`${page(id)}/document`), params: { transactionId: id }, context });
      const before = await get(made.id);
      expect(before.headers.get("Content-Type")).toBe("application/pdf");
      expect(before.headers.get("Content-Disposition")).toBe('inline; filename="notice-round-1.pdf"');
      expect(before.headers.get("Cache-Control")).toBe("private, no-store");
      expect(Buffer.from(await before.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);

      await notary.meetNotary(made.id);
      await notary.sign(made.id);
      const after = await get(made.id);
      expect(after.headers.get("Content-Disposition")).toBe('inline; filename="notarized-notice-round-1.pdf"');
      expect((await PDFDocument.load(await after.arrayBuffer())).getPageCount()).toBe(3);

      await notary.deleteAtProvider(made.id);
      expect((await thrown(get(made.id))).status).toBe(404);
    });
  });
});
