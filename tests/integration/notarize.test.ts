import type { AppLoadContext } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import { notarizations, users, webhookEvents } from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { NotaryUnavailable, type NotaryEvent } from "~/providers/notary/types";
import { action as notarizeAction } from "~/routes/api.nol.notarize";
import { action as nzAction } from "~/routes/api.nol.notarize.$nzId";
import { action as refreshAction } from "~/routes/api.nol.notarize.refresh.$nzId";
import { loader as documentLoader } from "~/routes/api.nol.notarize.$nzId.document";
import { loader as previewLoader } from "~/routes/api.nol.preview";
import { action as webhookAction } from "~/routes/api.webhooks.notary";
import { action as pageAction, loader as pageLoader } from "~/routes/nol.($form).($cause).notarize";
import type { notarizePage } from "~/services/notary/page.server";
import { noticesOf } from "~/services/documents/notices.server";
import { applyNotaryEvent, deliverNotarySandboxEvents, pollOpenNotarizations } from "~/services/notary/events.server";
import {
  NOTARIZE_FAILED_MESSAGE,
  REMOVED_MESSAGE,
  notarize,
  refreshNotarization,
} from "~/services/notary/notarize.server";
import { jobs } from "~/services/jobs.server";
import { submitDated } from "../helpers/steps";
import { loadViewer, siteCookies, type Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { readPdf } from "../helpers/pdf";
import { createSession } from "../helpers/users";
import { PROOF_API_KEY, PROOF_WEBHOOK_SECRET, proof, signedDelivery } from "../mocks/proof";
import { answer, formOf } from "../helpers/requests";

type NoticeJson = {
  notice_id: number;
  notarize: null | (Record<string, unknown> & { nz_id: string; access_url: string | null });
};

const mapValues = (values: Record<string, string | number>) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));

const notice1 = { claimantName: "Cara Creator", dailyAmount: "250", r1Name: "Officer Example", r1Type: "Official" };

describe.each(drivers)("notarizing a notice (%s)", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let proofContext: AppLoadContext;
  let services: AppServices;
  let creator: Viewer;
  let admin: Viewer;
  const cookie: Record<string, string> = {};
  let proofCookie = "";
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    context = testContext(database);
    proofContext = testContext(database, {
      NOTARY: "proof",
      PROOF_API_KEY,
      PROOF_WEBHOOK_SECRET,
    });
    services = context.app!;
    for (const u of await database.db.select().from(users)) {
      ids[u.username] = u.id;
      const session = await createSession(database.db, u.id);
      cookie[u.username] = await siteCookies(services.config).session.serialize(session.id);
    }
    proofCookie = await siteCookies(proofContext.app!.config).session.serialize(
      (await createSession(database.db, ids.creator!)).id,
    );
    creator = (await loadViewer(database.db, (await createSession(database.db, ids.creator!)).id))!;
    admin = (await loadViewer(database.db, (await createSession(database.db, ids.admin!)).id))!;
  });
  afterAll(async () => {
    await database?.dispose();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Submits round 1 of a new version: its notice, and the ids that name it. */
  async function roundOne(version: string) {
    const { entryId } = await submitDated(services, creator, creator.member, {
      causeCode: "TS",
      version,
      kind: "notice",
      form: formOf(notice1),
    });
    return { cf_number: Number(entryId.split("-")[1]), cf_version: version, round_cnt: 1 };
  }

  /** Takes the version's next steps, each with its form's values. */
  async function advance(version: string, steps: ("mailing" | "proof" | "notice")[]) {
    const values = {
      mailing: { mailingDate: "2026-03-02", track1: "RR123456789US", track9: "RR987654321US" },
      proof: { delivered: "on", deliveredOn: "2026-03-05" },
      notice: { ...notice1, r9Name: "Clerk Extra", r9Type: "Official" },
    };
    for (const kind of steps) {
      await submitDated(services, creator, creator.member, {
        causeCode: "TS",
        version,
        kind,
        form: formOf(values[kind]),
      });
    }
  }

  const call = (
    route: typeof notarizeAction,
    method: string,
    url: string,
    options: { username?: string; body?: unknown; params?: Record<string, string>; on?: AppLoadContext } = {},
  ) =>
    answer(
      route({
        request: new Request(`http://localhost${url}`, {
          method,
          ...(options.body === undefined
            ? {}
            : { body: typeof options.body === "string" ? options.body : JSON.stringify(options.body) }),
          headers: {
            cookie: options.on === proofContext ? proofCookie : (cookie[options.username ?? "creator"] ?? ""),
            "content-type": "application/json",
          },
        }),
        params: options.params ?? {},
        context: options.on ?? context,
      }),
    );

  const rowOf = async (nzId: string) =>
    (await database.db.select().from(notarizations).where(eq(notarizations.nzId, nzId)))[0];

  describe("with the sandbox notary", () => {
    let nzId: string;
    let noticeIds: Awaited<ReturnType<typeof roundOne>>;

    it("notarizes the member's submitted notice: the notice's notarize has the access URL", async () => {
      noticeIds = await roundOne("Notarized");
      const response = await call(notarizeAction, "POST", "/api/nol/notarize", { body: noticeIds });
      expect(response.status).toBe(200);
      const { notice } = (await response.json()) as { notice: NoticeJson };
      expect(notice.notarize).toMatchObject({
        nz_status: "sent",
        nz_status2: "sent_to_signer",
        cost: services.config.notarizeCostCents,
        access_url: expect.stringContaining("/notary/sandbox/ot_sb_"),
      });
      nzId = notice.notarize!.nz_id;
      const [record] = await noticesOf(database.db, creator.member, "TS").then((all) =>
        all.filter((r) => r.claim.nolVersion === "Notarized"),
      );
      expect(record!.notarization).toMatchObject({ provider: "sandbox", nzId });
    });

    it("makes one transaction for a double submit", async () => {
      const again = await notarize(services, creator, { ...noticeIds, draft: false });
      expect("notice" in again && again.notice.notarize!.nz_id).toBe(nzId);
    });

    it("follows the signer through the sandbox's events to completed", async () => {
      const sandbox = services.providers.notarySandbox!;
      await sandbox.meetNotary(nzId);
      await sandbox.sign(nzId);
      expect(await deliverNotarySandboxEvents(services)).toBeGreaterThan(0);
      expect(await rowOf(nzId)).toMatchObject({ nzStatus: "completed" });
      expect(await deliverNotarySandboxEvents(services)).toBe(0);
    });

    it("downloads the notarized PDF once completed: the notice with the notary's certificate page", async () => {
      const response = await call(documentLoader, "GET", `/api/nol/notarize/${nzId}/document`, { params: { nzId } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("content-disposition")).toMatch(
        /^attachment; filename="notarized-ts-notarized-round-1\.pdf"$/,
      );
      const { pages } = await readPdf(new Uint8Array(await response.arrayBuffer()));
      expect(pages.join("\n")).toContain(notice1.claimantName);
      expect(pages.length).toBeGreaterThan(1);
      const other = await call(documentLoader, "GET", `/api/nol/notarize/${nzId}/document`, {
        params: { nzId },
        username: "admin",
      });
      expect(other.status).toBe(404);
    });

    it("refreshes from the provider; a transaction removed there clears the link, with the warning", async () => {
      const fine = await call(refreshAction, "POST", `/api/nol/notarize/refresh/${nzId}`, { params: { nzId } });
      expect(await fine.json()).toEqual({ error: null, deleted: false, upd: true });

      await services.providers.notarySandbox!.deleteAtProvider(nzId);
      const gone = await call(refreshAction, "POST", `/api/nol/notarize/refresh/${nzId}`, { params: { nzId } });
      expect(await gone.json()).toEqual({ error: REMOVED_MESSAGE, deleted: true, upd: false });
      expect(await rowOf(nzId)).toMatchObject({ accessUrl: null, nzStatus: null, nzStatus2: null });
    });

    it("answers 404 alike for another member's nz_id, another member's notice and a missing one", async () => {
      for (const id of [nzId, "ot_sb_missing"]) {
        const response = await call(refreshAction, "POST", `/api/nol/notarize/refresh/${id}`, {
          username: "admin",
          params: { nzId: id },
        });
        expect(response.status).toBe(404);
        const put = await call(nzAction, "PUT", `/api/nol/notarize/${id}`, {
          username: "admin",
          body: {},
          params: { nzId: id },
        });
        expect(put.status).toBe(404);
        const del = await call(nzAction, "DELETE", `/api/nol/notarize/${id}`, {
          username: "admin",
          params: { nzId: id },
        });
        expect(del.status).toBe(404);
      }
      await expect(refreshNotarization(services, admin, nzId)).rejects.toMatchObject({ status: 404 });
      const other = await call(notarizeAction, "POST", "/api/nol/notarize", { username: "admin", body: noticeIds });
      expect(other.status).toBe(404);
      expect(await rowOf(nzId)).toBeDefined();
    });

    it("validates bodies and methods: 400 with field errors, 405 for another method, nothing changed", async () => {
      const bad = await call(notarizeAction, "POST", "/api/nol/notarize", { body: { ...noticeIds, round_cnt: 0 } });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { fieldErrors: object }).fieldErrors).toHaveProperty("round_cnt");
      const extra = await call(notarizeAction, "POST", "/api/nol/notarize", { body: { ...noticeIds, x: 1 } });
      expect(extra.status).toBe(400);
      const put = await call(nzAction, "PUT", `/api/nol/notarize/${nzId}`, { body: { send: "yes" }, params: { nzId } });
      expect(put.status).toBe(400);
      const patch = await call(nzAction, "PATCH", `/api/nol/notarize/${nzId}`, { params: { nzId } });
      expect(patch.status).toBe(405);
      expect(await patch.json()).toHaveProperty("error");
      const get = await call(notarizeAction, "GET", "/api/nol/notarize");
      expect(get.status).toBe(405);
    });

    it("sends a draft with PUT, and deletes with DELETE", async () => {
      const ids2 = await roundOne("Drafted");
      const made = await call(notarizeAction, "POST", "/api/nol/notarize", { body: { ...ids2, draft: true } });
      const { notice } = (await made.json()) as { notice: NoticeJson };
      const draftId = notice.notarize!.nz_id;
      expect(notice.notarize).toMatchObject({ nz_status: "draft" });
      const put = await call(nzAction, "PUT", `/api/nol/notarize/${draftId}`, { body: {}, params: { nzId: draftId } });
      expect(await put.json()).toMatchObject({ deleted: false, updated: true, upd: true });
      expect(await rowOf(draftId)).toMatchObject({ nzStatus: "sent" });
      const del = await call(nzAction, "DELETE", `/api/nol/notarize/${draftId}`, { params: { nzId: draftId } });
      expect(del.status).toBe(200);
      expect(await rowOf(draftId)).toBeUndefined();
      expect(await services.providers.notary.getTransaction(draftId)).toBeNull();
    });

    it("answers 503 while the notary is down, and writes nothing", async () => {
      const ids3 = await roundOne("Unreachable");
      vi.spyOn(services.providers.notary, "createTransaction").mockRejectedValue(new NotaryUnavailable("down"));
      const response = await call(notarizeAction, "POST", "/api/nol/notarize", { body: ids3 });
      expect(response.status).toBe(503);
      expect((await response.json()) as object).toHaveProperty("error");
      const records = (await noticesOf(database.db, creator.member, "TS")).filter(
        (r) => r.claim.nolVersion === "Unreachable",
      );
      expect(records[0]!.notarization).toBeNull();
    });

    it("answers spec §8's message with the support contact when no notarize results", async () => {
      const ids4 = await roundOne("Nothing");
      vi.spyOn(services.providers.notary, "createTransaction").mockResolvedValue(
        null as unknown as Awaited<ReturnType<typeof services.providers.notary.createTransaction>>,
      );
      const response = await call(notarizeAction, "POST", "/api/nol/notarize", { body: ids4 });
      const { error } = (await response.json()) as { error: string };
      expect(error).toContain(NOTARIZE_FAILED_MESSAGE);
      expect(error).toContain(services.config.supportEmail);
    });

    it("applies a replayed event once", async () => {
      const ids5 = await roundOne("Replayed");
      const result = await notarize(services, creator, { ...ids5, draft: false });
      const id = "notice" in result ? result.notice.notarize!.nz_id! : "";
      await deliverNotarySandboxEvents(services);
      const event: NotaryEvent = {
        id: `evt_replay_${driver}`,
        provider: "sandbox",
        providerType: "transaction.in_progress",
        transactionId: id,
        status: "in_progress",
        detailedStatus: "meeting_notary",
        deleted: false,
        occurredAt: new Date(Date.now() + 1000),
      };
      expect(await applyNotaryEvent(database.db, event)).toEqual({ outcome: "applied" });
      expect(await rowOf(id)).toMatchObject({ nzStatus: "in_progress", nzStatus2: "meeting_notary" });
      await database.db.update(notarizations).set({ nzStatus: "sent" }).where(eq(notarizations.nzId, id));
      expect(await applyNotaryEvent(database.db, event)).toEqual({ outcome: "duplicate" });
      expect(await rowOf(id)).toMatchObject({ nzStatus: "sent" });
      const stored = await database.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, event.id));
      expect(stored).toHaveLength(1);
    });

    it("polls the open notarizations: a stale row is brought up to date", async () => {
      const ids6 = await roundOne("Stale");
      const result = await notarize(services, creator, { ...ids6, draft: false });
      const id = "notice" in result ? result.notice.notarize!.nz_id! : "";
      await services.providers.notarySandbox!.meetNotary(id);
      await services.providers.notarySandbox!.sign(id);
      // The events are lost: the row still says sent.
      expect(await rowOf(id)).toMatchObject({ nzStatus: "sent" });
      expect(await pollOpenNotarizations(services)).toBeGreaterThan(0);
      expect(await rowOf(id)).toMatchObject({ nzStatus: "completed" });
      await deliverNotarySandboxEvents(services);
    });

    it("makes one transaction for two submits at once", async () => {
      const both = await roundOne("Twice");
      const [a, b] = await Promise.all([
        notarize(services, creator, { ...both, draft: false }),
        notarize(services, creator, { ...both, draft: false }),
      ]);
      const idOf = (r: typeof a) => ("notice" in r ? r.notice.notarize!.nz_id : null);
      expect(idOf(a)).not.toBeNull();
      expect(idOf(b)).toBe(idOf(a));
    });

    it("refuses a notice its version has moved past: 400 with the reason, nothing made", async () => {
      const ids = await roundOne("Moved on");
      await advance("Moved on", ["mailing", "proof"]);
      const response = await call(notarizeAction, "POST", "/api/nol/notarize", { body: ids });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: "Round 1 is not at a step that can be notarized online; the current notice is Round 2.",
      });
      const records = (await noticesOf(database.db, creator.member, "TS")).filter(
        (r) => r.claim.nolVersion === "Moved on",
      );
      expect(records.map((r) => [r.notice.roundCnt, r.notarization])).toEqual([[1, null]]);
    });

    it("notarizes at a notice step the notice being written, and keeps that notarize at its mailing step", async () => {
      const version = "Written";
      const round1 = await roundOne(version);
      await advance(version, ["mailing", "proof"]);
      const written = { ...round1, round_cnt: 2 };
      const url = `/nol/creator/traffic-stop/notarize?version=${version}`;
      const params = { form: "creator", cause: "traffic-stop" };
      const load = async () =>
        (await (await call(pageLoader as never, "GET", url, { params })).json()) as Awaited<
          ReturnType<typeof notarizePage>
        >;
      const roundsOf = async () =>
        (await noticesOf(database.db, creator.member, "TS"))
          .filter((r) => r.claim.nolVersion === version)
          .map((r) => r.notice.roundCnt);

      // The page offers round 2 as the saved answers make it; its preview is made and nothing stored.
      expect((await load()).chosen).toMatchObject({
        step: "Round 2 Notice of Fault",
        reason: null,
        current: written,
        currentLabel: "Round 2",
        written: true,
      });
      const previewUrl = `/api/nol/preview?${new URLSearchParams(mapValues(written))}`;
      const preview = await call(previewLoader as never, "GET", previewUrl);
      expect(preview.status).toBe(200);
      const { pages } = await readPdf(new Uint8Array(await preview.arrayBuffer()));
      expect(pages.join("\n")).toContain(notice1.claimantName);
      expect(pages.join("\n")).toContain("Officer Example");
      expect(await roundsOf()).toEqual([1]);
      expect((await call(previewLoader as never, "GET", previewUrl, { username: "admin" })).status).toBe(404);
      // Not round 3, not another member's.
      const later = { ...written, round_cnt: 3 };
      expect((await call(notarizeAction, "POST", "/api/nol/notarize", { body: later })).status).toBe(404);
      const other = await call(notarizeAction, "POST", "/api/nol/notarize", { body: written, username: "admin" });
      expect(other.status).toBe(404);
      expect(await roundsOf()).toEqual([1]);

      const response = await call(notarizeAction, "POST", "/api/nol/notarize", { body: written });
      expect(response.status).toBe(200);
      const { notice } = (await response.json()) as { notice: NoticeJson & { round_cnt: number } };
      expect(notice).toMatchObject({ round_cnt: 2, notarize: { nz_status: "sent" } });
      const id = notice.notarize!.nz_id;
      expect(await roundsOf()).toEqual([1, 2]);
      const sent = await services.providers.notarySandbox!.signerDocument(id);
      expect((await readPdf(sent!.pdf)).pages.join("\n")).toContain(notice1.claimantName);
      // A second submit at the notice step answers the same transaction.
      const again = await notarize(services, creator, { ...written, draft: false });
      expect("notice" in again && again.notice.notarize!.nz_id).toBe(id);

      // Saving the notice step keeps its notice and the notarize; the mailing step offers them.
      await advance(version, ["notice"]);
      const atMailing = (await load()).chosen!;
      expect(atMailing).toMatchObject({ step: "Round 2 Mailing", reason: null, current: written, written: false });
      expect(atMailing.notices.map((n) => [n.round_cnt, n.notarize?.nz_id ?? null])).toEqual([
        [1, null],
        [2, id],
      ]);
    });

    it("notarizes again after a delete or a removal: a new transaction, which the next refresh finds", async () => {
      const ids = await roundOne("Again");
      const idOf = (r: Awaited<ReturnType<typeof notarize>>) => ("notice" in r ? r.notice.notarize!.nz_id : null);
      const refresh = async (id: string) =>
        (await call(refreshAction, "POST", `/api/nol/notarize/refresh/${id}`, { params: { nzId: id } })).json();
      const first = idOf(await notarize(services, creator, { ...ids, draft: false }))!;
      const del = await call(nzAction, "DELETE", `/api/nol/notarize/${first}`, { params: { nzId: first } });
      expect(del.status).toBe(200);

      // Two submits at once after the delete are still one transaction, and a new one.
      const [a, b] = await Promise.all([
        notarize(services, creator, { ...ids, draft: false }),
        notarize(services, creator, { ...ids, draft: false }),
      ]);
      const second = idOf(a)!;
      expect(second).not.toBe(first);
      expect(idOf(b)).toBe(second);
      expect(await refresh(second)).toEqual({ error: null, deleted: false, upd: true });
      expect(await rowOf(second)).toMatchObject({ nzStatus: "sent", accessUrl: expect.stringContaining(second) });

      await services.providers.notarySandbox!.deleteAtProvider(second);
      expect(await refresh(second)).toEqual({ error: REMOVED_MESSAGE, deleted: true, upd: false });
      const third = idOf(await notarize(services, creator, { ...ids, draft: false }))!;
      expect([first, second]).not.toContain(third);
      expect(await refresh(third)).toEqual({ error: null, deleted: false, upd: true });
    });

    it("the notarize page lists the version's notices and takes its four forms without JavaScript", async () => {
      const ids = await roundOne("Page forms");
      const url = `/nol/creator/traffic-stop/notarize?version=Page%20forms`;
      const params = { form: "creator", cause: "traffic-stop" };
      const load = async () => {
        const response = await call(pageLoader as never, "GET", url, { params });
        return (await response.json()) as Awaited<ReturnType<typeof notarizePage>>;
      };
      const post = async (values: Record<string, string>) => {
        const body = new URLSearchParams(values).toString();
        const response = await answer(
          pageAction({
            request: new Request(`http://localhost${url}`, {
              method: "POST",
              body,
              headers: { cookie: cookie.creator!, "content-type": "application/x-www-form-urlencoded" },
            }),
            params,
            context,
          }),
        );
        return { status: response.status, outcome: (await response.json()) as Record<string, unknown> };
      };
      const page = await load();
      expect(page.chosen).toMatchObject({ version: "Page forms", current: ids, reason: null, currentLabel: "Round 1" });
      expect(page.chosen!.notices.map((n) => [n.round_cnt, n.notarize])).toEqual([[1, null]]);
      expect(page.cost).toBe("$25.00");

      const made = await post({ intent: "create", ...mapValues(ids), draft: "on" });
      expect(made).toMatchObject({ status: 200, outcome: { success: expect.stringContaining("draft") } });
      const drafted = (await load()).chosen!.notices[0]!.notarize!;
      expect(drafted).toMatchObject({ nz_status: "draft", access_url: null });

      expect(await post({ intent: "update", nz_id: drafted.nz_id! })).toMatchObject({
        status: 200,
        outcome: { success: "Updated status", error: null },
      });
      expect((await load()).chosen!.notices[0]!.notarize).toMatchObject({ nz_status: "sent" });
      expect(await post({ intent: "refresh", nz_id: drafted.nz_id! })).toMatchObject({ status: 200 });
      expect(await post({ intent: "delete", nz_id: drafted.nz_id! })).toMatchObject({ status: 200 });
      expect((await load()).chosen!.notices[0]!.notarize).toBeNull();

      expect(await post({ intent: "refresh", nz_id: drafted.nz_id! })).toMatchObject({ status: 404 });
      expect(await post({ intent: "create", cf_number: "x" })).toMatchObject({ status: 400 });
      expect(await post({ intent: "sideways" })).toMatchObject({ status: 400 });
    });

    it("runs the sandbox's event job only with the sandbox notary; the poll job always", () => {
      expect(jobs["notary-sandbox-events"].enabled(services)).toBe(true);
      expect(jobs["notary-sandbox-events"].enabled(proofContext.app!)).toBe(false);
      expect(jobs["notary-poll"]).toMatchObject({ schedule: "*/5 * * * *" });
    });

    it("has no webhook while the sandbox is the notary", async () => {
      const response = await call(webhookAction, "POST", "/api/webhooks/notary", { body: {} });
      expect(response.status).toBe(404);
    });
  });

  describe("with Proof", () => {
    it("sends the attempt's key as external_id; after a delete the next attempt is a new transaction at Proof", async () => {
      proof.reset();
      const ids8 = await roundOne("Proof again");
      const post = async () => {
        const response = await call(notarizeAction, "POST", "/api/nol/notarize", { body: ids8, on: proofContext });
        return ((await response.json()) as { notice: NoticeJson & { notice_id: number } }).notice;
      };
      const first = await post();
      const firstId = first.notarize!.nz_id;
      expect(proof.transactions.get(firstId)!.transaction.external_id).toBe(`notice-${first.notice_id}-after-none`);
      const del = await call(nzAction, "DELETE", `/api/nol/notarize/${firstId}`, {
        params: { nzId: firstId },
        on: proofContext,
      });
      expect(del.status).toBe(200);
      const again = (await post()).notarize!.nz_id;
      expect(again).not.toBe(firstId);
      expect(proof.transactions.has(firstId)).toBe(false);
      const refreshed = await call(refreshAction, "POST", `/api/nol/notarize/refresh/${again}`, {
        params: { nzId: again },
        on: proofContext,
      });
      expect(await refreshed.json()).toEqual({ error: null, deleted: false, upd: true });
    });

    it("notarizes, and a signed webhook through the route completes it; a bad signature is 400", async () => {
      proof.reset();
      const proofServices = proofContext.app!;
      const ids7 = await roundOne("Proofed");
      const response = await call(notarizeAction, "POST", "/api/nol/notarize", { body: ids7, on: proofContext });
      expect(response.status).toBe(200);
      const { notice } = (await response.json()) as { notice: NoticeJson };
      expect(notice.notarize).toMatchObject({ nz_status: "sent", access_url: expect.stringContaining("proof.com") });
      const id = notice.notarize!.nz_id;
      expect(proofServices.providers.notary.name).toBe("proof");

      proof.complete(id);
      const body = {
        event: "transaction.completed",
        data: { transaction_id: id, date_occurred: new Date(Date.now() + 1000).toISOString() },
      };
      const { rawBody, headers } = signedDelivery(body);
      const deliver = (h: Headers, raw = rawBody) =>
        answer(
          webhookAction({
            request: new Request("http://localhost/api/webhooks/notary", { method: "POST", body: raw, headers: h }),
            params: {},
            context: proofContext,
          }),
        );
      const forged = signedDelivery(body, "not-the-key");
      expect((await deliver(forged.headers)).status).toBe(400);
      expect(await rowOf(id)).toMatchObject({ nzStatus: "sent" });

      // A NUL character in a signed delivery is refused before anything is stored.
      const withNul = signedDelivery({ ...body, data: { ...body.data, detailed_status: "x\u0000" } });
      const refused = await deliver(withNul.headers, withNul.rawBody);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        error: "A NUL character (U+0000) cannot be stored: leave it out of data.detailed_status",
      });
      expect(await rowOf(id)).toMatchObject({ nzStatus: "sent" });

      // Half a character in a signed delivery is read as U+FFFD: the event is applied and kept.
      const half = signedDelivery(
        JSON.stringify({ event: "transaction.updated", data: { transaction_id: id, detailed_status: "x" } }).replace(
          '"x"',
          String.raw`"x\ud83d"`,
        ),
      );
      const halfAnswer = await deliver(half.headers, half.rawBody);
      expect(halfAnswer.status).toBe(200);

      const ok = await deliver(headers);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ received: true, duplicate: false });
      expect(await rowOf(id)).toMatchObject({ nzStatus: "completed", provider: "proof" });
      expect(await (await deliver(headers)).json()).toEqual({ received: true, duplicate: true });
    });
  });
});
