import type { AppLoadContext } from "@remix-run/node";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claims, documentTemplates, noticeCfs, notices, users } from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { SAMPLE_TEMPLATES } from "~/domain/documents/samples";
import { noticeSchema, noticesResultSchema } from "~/domain/entities";
import type { DomainError } from "~/domain/errors";
import { action as templatesAction, loader as templatesLoader } from "~/routes/admin_.templates._index";
import { action as templateAction, loader as templateLoader } from "~/routes/admin_.templates.$id";
import {
  action as templatePreviewAction,
  loader as templatePreviewLoader,
} from "~/routes/admin_.templates.$id_.preview";
import { action as noticesAction, loader as noticesLoader } from "~/routes/api.nol.notices";
import { action as previewAction, loader as previewLoader } from "~/routes/api.nol.preview";
import { action as webhookAction } from "~/routes/api.forms.cognito.$secret.$event";
import { loader as noticePdfLoader } from "~/routes/nol.$form.$cause.notice[.]pdf";
import { loader as stepLoader } from "~/routes/nol.$form.$cause.$step";
import { LETTER_AREAS, within } from "~/domain/documents/letters";
import { renderPdf } from "~/services/documents/pdf.server";
import { documentDisclaimer } from "~/services/documents/templates.server";
import { authEntry } from "~/services/nol/access.server";
import { type submitStep } from "~/services/nol/save-step.server";
import { submitDated } from "../helpers/steps";
import { loadViewer, sessionState, siteCookies, type Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { pageLayout, readPdf, rectsMeet } from "../helpers/pdf";
import { signedRequest } from "../helpers/state";
import { createSession, newDeviceKey } from "../helpers/users";
import { answer, formOf } from "../helpers/requests";

const SECRET = "cognito-webhook-secret-for-documents-0123";

describe.each(drivers)("notices and their documents on %s", (driver) => {
  let database: TestDatabase;
  let context: AppLoadContext;
  let cognito: AppLoadContext;
  let creator: Viewer;
  const cookie: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    context = testContext(database);
    cognito = testContext(database, {
      FORMS: "cognito",
      COGNITO_API_URL: "https://www.cognitoforms.com",
      COGNITO_API_KEY: "key",
      COGNITO_EMBED_KEY: "embed-key",
      COGNITO_WEBHOOK_SECRET: SECRET,
    });
    for (const u of await database.db.select().from(users)) {
      ids[u.username] = u.id;
      const session = await createSession(database.db, u.id);
      cookie[u.username] = await siteCookies(context.app!.config).session.serialize(session.id);
    }
    creator = (await loadViewer(database.db, (await createSession(database.db, ids.creator!)).id))!;
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const step = (version: string, kind: Parameters<typeof submitStep>[3]["kind"], values: Record<string, string>) =>
    submitDated(context.app!, creator, creator.member, { causeCode: "TS", version, kind, form: formOf(values) });
  const notice1 = { claimantName: "Cara Creator", dailyAmount: "250", r1Name: "Officer Example", r1Type: "Official" };
  const mailing = { mailingDate: "2026-03-01", track1: "RR123456789US", track9: "RR987654321US" };

  /** The creator's claims, notices and notice_cfs of a version, as rows. */
  const recordsOf = async (version: string) => {
    const rows = await database.db
      .select({ claim: claims, notice: notices, cf: noticeCfs })
      .from(claims)
      .innerJoin(notices, eq(notices.claimId, claims.id))
      .innerJoin(noticeCfs, eq(noticeCfs.noticeId, notices.id))
      .where(and(eq(claims.claimantId, ids.creator!), eq(claims.nolVersion, version)))
      .orderBy(notices.roundCnt);
    return rows;
  };

  const getNotices = (username: string, query: string) =>
    answer(
      noticesLoader({
        request: new Request(`http://localhost/api/nol/notices?${query}`, {
          headers: { cookie: cookie[username] ?? "" },
        }),
        params: {},
        context,
      }),
    );

  const postPreview = (username: string, body: unknown) =>
    answer(
      previewAction({
        request: new Request("http://localhost/api/nol/preview", {
          method: "POST",
          body: typeof body === "string" ? body : JSON.stringify(body),
          headers: { cookie: cookie[username] ?? "", "content-type": "application/json" },
        }),
        params: {},
        context,
      }),
    );

  const idsOf = (row: { cf: { cfNumber: number; cfVersion: string }; notice: { roundCnt: number } }) => ({
    cf_number: row.cf.cfNumber,
    cf_version: row.cf.cfVersion,
    round_cnt: row.notice.roundCnt,
  });

  describe("the records of a submitted round", () => {
    it("writes the claim, the round's notice and its notice_cf with the entry, once", async () => {
      const { entryId } = await step("Records", "notice", notice1);
      const records = await recordsOf("Records");
      expect(records).toHaveLength(1);
      const { claim, notice, cf } = records[0]!;
      expect(claim).toMatchObject({ causeCode: "TS", countryCode: "US", nolVersion: "Records" });
      expect(claim.exhibitId).toBe(`TS-${String(claim.id).padStart(6, "0")}`);
      expect(notice).toMatchObject({ roundCnt: 1, documentTemplateId: null });
      expect(cf).toMatchObject({ cfFormId: 187, cfNumber: Number(entryId.split("-")[1]), cfVersion: "Records" });

      // The same submit again is refused (the round is taken) and records nothing more.
      await expect(step("Records", "notice", notice1)).rejects.toMatchObject({ status: 409 });
      // A refused step saves nothing, its records neither.
      const refused = await step("Records", "mailing", { ...mailing, mailingDate: "2026-02-30" }).catch(
        (e: DomainError) => e,
      );
      expect(refused).toMatchObject({ status: 400 });
      expect(await recordsOf("Records")).toEqual(records);
    });

    it("moves cf_updated when the entry is updated, and adds each round's notice as it is submitted", async () => {
      const [before] = await recordsOf("Records");
      await step("Records", "mailing", mailing);
      const [after] = await recordsOf("Records");
      expect(after!.cf.cfUpdated!.getTime()).toBeGreaterThan(before!.cf.cfUpdated!.getTime());
      expect({ ...after!.cf, cfUpdated: null }).toEqual({ ...before!.cf, cfUpdated: null });
      expect(after!.notice).toEqual(before!.notice);

      await step("Records", "proof", { delivered: "on", deliveredOn: "2026-03-05" });
      await step("Records", "notice", {
        claimantName: "Cara Creator",
        dailyAmount: "250",
        r9Name: "Joined Party",
        r9Type: "Joinder",
      });
      const rows = await recordsOf("Records");
      expect(rows.map((r) => r.notice.roundCnt)).toEqual([1, 2]);
      expect(new Set(rows.map((r) => r.claim.id)).size).toBe(1);
      expect(rows.map((r) => r.cf.cfNumber)).toEqual([before!.cf.cfNumber, before!.cf.cfNumber]);
    });

    it("writes a true bill's notice as its round, with the bill's entry, and none for the billing profile", async () => {
      const version = "Billed";
      await step(version, "notice", notice1);
      for (const round of [1, 2, 3]) {
        if (round > 1) await step(version, "notice", { claimantName: "Cara Creator", dailyAmount: "250" });
        await step(version, "mailing", mailing);
        await step(version, "proof", { delivered: "on", deliveredOn: "2026-03-05" });
      }
      await step(version, "setup-billing", { dailyAmount: "250" });
      expect((await recordsOf(version)).map((r) => r.notice.roundCnt)).toEqual([1, 2, 3]);
      const { entryId } = await step(version, "true-bill", {
        preparationDate: "2026-06-01",
        administrativeJudgment: "10000",
        status1: "on",
        continue1: "on",
      });
      const rows = await recordsOf(version);
      expect(rows.map((r) => r.notice.roundCnt)).toEqual([1, 2, 3, 4]);
      expect(rows[3]!.cf).toMatchObject({ cfFormId: 194, cfNumber: Number(entryId.split("-")[1]), cfVersion: version });
    });

    it("records a Cognito delivery once: a re-delivery changes nothing, an update moves cf_updated", async () => {
      const hash = authEntry(cognito.app!, creator.member).hash!;
      const entry = (version: number, dateUpdated: string, tracking: boolean[]) => ({
        Hash: hash,
        Id: "187-900",
        Entry: { Number: 900, Version: version, DateCreated: "2026-05-01T10:00:00Z", DateUpdated: dateUpdated },
        Username: "creator",
        Cause: "TS",
        DescriptiveVersion: "Hosted",
        Round: tracking.length,
        NolTracking: tracking,
      });
      const deliver = (body: unknown) =>
        answer(
          webhookAction({
            request: new Request(`http://localhost/api/forms/cognito/${SECRET}/submit`, {
              method: "POST",
              body: JSON.stringify(body),
              headers: { "content-type": "application/json" },
            }),
            params: { secret: SECRET, event: "submit" },
            context: cognito,
          }),
        );
      expect((await deliver(entry(1, "2026-05-02T10:00:00Z", [true]))).status).toBe(200);
      const first = await recordsOf("Hosted");
      expect(first.map((r) => [r.notice.roundCnt, r.cf.cfNumber, r.cf.cfUpdated?.toISOString()])).toEqual([
        [1, 900, "2026-05-02T10:00:00.000Z"],
      ]);
      expect(first[0]!.cf.cfCreated?.toISOString()).toBe("2026-05-01T10:00:00.000Z");

      expect(await (await deliver(entry(1, "2026-05-02T10:00:00Z", [true]))).json()).toMatchObject({ duplicate: true });
      expect(await recordsOf("Hosted")).toEqual(first);

      await deliver(entry(2, "2026-05-09T10:00:00Z", [true, true]));
      const updated = await recordsOf("Hosted");
      expect(updated.map((r) => [r.notice.roundCnt, r.cf.cfUpdated?.toISOString()])).toEqual([
        [1, "2026-05-09T10:00:00.000Z"],
        [2, "2026-05-09T10:00:00.000Z"],
      ]);
      expect(updated[0]!.notice).toEqual(first[0]!.notice);
      expect(updated[0]!.claim.id).toBe(first[0]!.claim.id);
      // A hosted entry names no claimant: its document names the member.
      const { pages } = await readPdf(await (await postPreview("creator", idsOf(updated[1]!))).arrayBuffer());
      expect(pages[0]).toContain("From: Demo Creator");
      expect(pages[0]).toContain("Notice of Fault");
    });
  });

  describe("GET /api/nol/notices", () => {
    it("lists the member's notices of the cause with claim, notice_cf and a null notarize (spec §3)", async () => {
      const response = await getNotices("creator", "cause_code=TS");
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const body: unknown = await response.json();
      // The spec's shape, and nothing more: each nested object exactly as spec §3 names it.
      const parsed = noticesResultSchema.parse(body).list;
      for (const notice of (body as { list: unknown[] }).list) noticeSchema.strict().parse(notice);
      expect(parsed.length).toBeGreaterThanOrEqual(8);
      const first = parsed.find((n) => n.claim.nol_version === "Records" && n.round_cnt === 1)!;
      expect(first).toMatchObject({
        notarize: null,
        claim: { claimant_id: ids.creator, cause_code: "TS", country_code: "US", nol_version: "Records" },
        notice_cf: { cf_form_id: 187, cf_version: "Records" },
      });
      expect(Object.keys(first.claim).sort()).toEqual(
        [
          "claim_id",
          "claimant_id",
          "cause_code",
          "country_code",
          "nol_version",
          "created_at",
          "updated_at",
          "exhibit_id",
        ].sort(),
      );
      expect(Object.keys(first.notice_cf).sort()).toEqual(
        ["notice_cf_id", "cf_form_id", "cf_number", "cf_created", "cf_updated", "cf_version"].sort(),
      );
      // Another member has none; a cause with none lists none.
      expect((await (await getNotices("member", "cause_code=TS")).json()).list).toEqual([]);
      expect((await (await getNotices("creator", "cause_code=PS")).json()).list).toEqual([]);
    });

    it("answers on the state-header carrier too", async () => {
      const device = newDeviceKey();
      const session = await createSession(database.db, ids.creator!, device.publicKey, "state");
      const state = sessionState((await loadViewer(database.db, session.id))!, context.app!.config);
      const request = signedRequest("/api/nol/notices?cause_code=TS", {
        state: state.stateString,
        hash: state.stateHash,
        devicePrivateKey: device.privateKey,
        config: context.app!.config,
      });
      const response = await answer(noticesLoader({ request, params: {}, context }));
      expect(response.status).toBe(200);
      expect(((await response.json()) as { list: unknown[] }).list.length).toBeGreaterThan(0);
    });

    it("answers a visitor 401, an unknown cause 'Unknown cause code', no cause 400, and a write 405", async () => {
      expect((await getNotices("nobody", "cause_code=TS")).status).toBe(401);
      const unknown = await getNotices("creator", "cause_code=ZZZ");
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ error: "Unknown cause code" });
      const missing = await getNotices("creator", "");
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ fieldErrors: { cause_code: expect.any(Array) } });
      expect((await answer(noticesAction())).status).toBe(405);
    });
  });

  describe("the notice's document", () => {
    it("answers POST /api/nol/preview with the member's notice as a PDF", async () => {
      const [round1] = await recordsOf("Records");
      const response = await postPreview("creator", idsOf(round1!));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("application/pdf");
      expect(response.headers.get("content-disposition")).toBe('inline; filename="ts-records-round-1.pdf"');
      expect(response.headers.get("cache-control")).toBe("no-store");
      const { doc, pages } = await readPdf(await response.arrayBuffer());
      expect(doc.getPageCount()).toBe(1);
      expect(doc.getTitle()).toBe("Notice of Liability: Cara Creator");
      expect(doc.getKeywords()).toContain("Round 1");
      expect(pages[0]).toContain("Notice of Liability");
      expect(pages[0]).toContain('Round 1 of "Records" · Traffic Stop');
      expect(pages[0]).toContain("From: Cara Creator");
      expect(pages[0]).toContain("1. Officer Example (Official)");
      expect(pages[0]).toContain("Tracking number: RR123456789US");
      expect(pages[0]).toContain("Page 1 of 1");
      // The community's notice is printed at the foot of the page.
      const disclaimer = await documentDisclaimer(database.db);
      expect(pages[0]!.replace(/\n/g, " ")).toContain(disclaimer.slice(0, 60));
    });

    it("gives a true bill's document its amounts and escalation fee", async () => {
      const bill = (await recordsOf("Billed"))[3]!;
      const response = await postPreview("creator", idsOf(bill));
      const { pages } = await readPdf(await response.arrayBuffer());
      expect(pages[0]).toContain("First True Bill");
      expect(pages[0]).toContain("Administrative judgment: $10,000.00");
      expect(pages[0]).toContain("Total of this bill: $10,000.00");
    });

    it("serves the same document at a GET address a page can frame, or save with download=1", async () => {
      const [round1] = await recordsOf("Records");
      const { cf_number, cf_version, round_cnt } = idsOf(round1!);
      const query = new URLSearchParams({ cf_number: String(cf_number), cf_version, round_cnt: String(round_cnt) });
      const get = (search: string) =>
        answer(
          previewLoader({
            request: new Request(`http://localhost/api/nol/preview?${search}`, {
              headers: { cookie: cookie.creator! },
            }),
            params: {},
            context,
          }),
        );
      const shown = await get(query.toString());
      expect(shown.status).toBe(200);
      expect(shown.headers.get("content-disposition")).toMatch(/^inline;/);
      const saved = await get(`${query}&download=1`);
      expect(saved.headers.get("content-disposition")).toBe('attachment; filename="ts-records-round-1.pdf"');
      expect((await get("cf_number=x&cf_version=v&round_cnt=1")).status).toBe(400);
    });

    it("draws 16 respondents of a round 3 notice, each in its slot", async () => {
      const version = "Sixteen";
      const names = (from: number, to: number) =>
        Object.fromEntries(
          Array.from({ length: to - from + 1 }, (_, i) => [
            [`r${from + i}Name`, `Respondent Number ${from + i} With A Long Enough Name`],
            [`r${from + i}Type`, "Agency"],
          ]).flat(),
        );
      // One envelope for each respondent, each with a tracking number of its own.
      const envelopes = (to: number) => ({
        mailingDate: "2026-03-01",
        ...Object.fromEntries(Array.from({ length: to }, (_, i) => [`track${i + 1}`, `RR${String(123456700 + i)}US`])),
      });
      await step(version, "notice", { claimantName: "Cara Creator", dailyAmount: "250", ...names(1, 8) });
      await step(version, "mailing", envelopes(8));
      await step(version, "proof", { delivered: "on", deliveredOn: "2026-03-05" });
      await step(version, "notice", { claimantName: "Cara Creator", dailyAmount: "250", ...names(9, 12) });
      await step(version, "mailing", envelopes(12));
      await step(version, "proof", { delivered: "on", deliveredOn: "2026-03-05" });
      await step(version, "notice", { claimantName: "Cara Creator", dailyAmount: "250", ...names(13, 16) });
      const round3 = (await recordsOf(version))[2]!;
      const response = await postPreview("creator", idsOf(round3));
      const { pages } = await readPdf(await response.arrayBuffer());
      const text = pages.join("\n");
      for (let slot = 1; slot <= 16; slot += 1)
        expect(text).toContain(`${slot}. Respondent Number ${slot} With A Long Enough Name (Agency)`);
      expect(text).toContain("Default");
    });

    it("answers someone else's notice and a missing one with the same 404, and a visitor 401", async () => {
      const [round1] = await recordsOf("Records");
      const theirs = await postPreview("member", idsOf(round1!));
      const missing = await postPreview("creator", { ...idsOf(round1!), round_cnt: 3 });
      expect(theirs.status).toBe(404);
      expect(missing.status).toBe(404);
      expect(await theirs.json()).toEqual(await missing.json());
      expect((await postPreview("nobody", idsOf(round1!))).status).toBe(401);
    });

    it("answers bad input with 400 and field errors, and changes nothing", async () => {
      const stamps = async () => (await database.db.select().from(notices)).map((n) => [n.id, n.documentTemplateId]);
      const before = await stamps();
      const bad = await postPreview("creator", { cf_number: "3", cf_version: "", round_cnt: 0, extra: true });
      expect(bad.status).toBe(400);
      const body = (await bad.json()) as { fieldErrors: Record<string, string[]> };
      expect(Object.keys(body.fieldErrors).sort()).toEqual(["body", "cf_number", "cf_version", "round_cnt"]);
      expect((await postPreview("creator", "{not json")).status).toBe(400);
      expect(await stamps()).toEqual(before);
    });
  });

  describe("the letters of a mailed notice", () => {
    const claimantAddress = "100 Sample Street\nSpringfield, IL 62701";
    const recipients = [
      { name: "Officer Example", type: "Official", address: "1 Precinct Way, Springfield, IL 62701" },
      { name: "City Clerk", type: "Agency", address: "2 City Hall Plaza\nSpringfield, IL 62702" },
    ];
    const noticePdf = (username: string, query: string) =>
      answer(
        noticePdfLoader({
          request: new Request(`http://localhost/nol/creator/traffic-stop/notice.pdf?${query}`, {
            headers: { cookie: cookie[username] ?? "" },
          }),
          params: { form: "creator", cause: "traffic-stop" },
          context,
        }),
      );

    beforeAll(async () => {
      await step("Letters", "notice", {
        claimantName: "Cara Creator",
        claimantAddress,
        dailyAmount: "250",
        ...Object.fromEntries(
          recipients.flatMap((r, i) => [
            [`r${i + 1}Name`, r.name],
            [`r${i + 1}Type`, r.type],
            [`r${i + 1}Address`, r.address],
          ]),
        ),
      });
    });

    it("makes one letter per respondent, each on its own page with both addresses where a #10 window envelope shows them", async () => {
      const response = await noticePdf("creator", "version=Letters&round=1");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-disposition")).toBe('attachment; filename="ts-letters-round-1.pdf"');
      const { doc, pages } = await readPdf(await response.arrayBuffer());
      expect(doc.getPageCount()).toBe(recipients.length);
      for (const [i, recipient] of recipients.entries()) {
        const { texts } = await pageLayout(doc, doc.getPage(i));
        const inside = (area: typeof LETTER_AREAS.recipient) => texts.filter((t) => within(t, area)).map((t) => t.text);
        // The window shows the respondent's name and address, in USPS's lines, and nothing else.
        const [street, city] = recipient.address.includes("\n")
          ? recipient.address.split("\n")
          : ["1 Precinct Way", "Springfield, IL 62701"];
        expect(inside(LETTER_AREAS.recipient)).toEqual([recipient.name, street, city]);
        expect(texts.filter((t) => rectsMeet(t, LETTER_AREAS.recipient) && !within(t, LETTER_AREAS.recipient))).toEqual(
          [],
        );
        expect(inside(LETTER_AREAS.returnAddress)).toEqual([
          "Cara Creator",
          "100 Sample Street",
          "Springfield, IL 62701",
        ]);
        expect(pages[i]).toContain(`To: ${recipient.name} (${recipient.type})`);
        // Every respondent is named in each letter; each letter is numbered on its own.
        expect(pages[i]).toContain("1. Officer Example (Official)");
        expect(pages[i]).toContain("2. City Clerk (Agency)");
        expect(pages[i]).toContain(`Letter ${i + 1} of 2 · Page 1 of 1`);
      }
    });

    it("numbers a letter's pages within the letter, each letter from a new page", async () => {
      const letter = (name: string) => [
        { style: "recipient" as const, text: name },
        ...Array.from({ length: 60 }, (_, i) => ({
          style: "text" as const,
          text: `Line ${i + 1} of the letter to ${name}`,
        })),
      ];
      const bytes = await renderPdf({
        letters: [letter("First Respondent"), letter("Second Respondent")],
        footer: "Not legal advice.",
        title: "Letters",
        subject: "Letters",
        author: "Test",
        keywords: [],
      });
      const { doc, pages } = await readPdf(bytes);
      expect(pages.map((p) => /Letter \d of \d · Page \d of \d/.exec(p)?.[0])).toEqual([
        "Letter 1 of 2 · Page 1 of 2",
        "Letter 1 of 2 · Page 2 of 2",
        "Letter 2 of 2 · Page 1 of 2",
        "Letter 2 of 2 · Page 2 of 2",
      ]);
      const windowOf = async (page: number) =>
        (await pageLayout(doc, doc.getPage(page))).texts
          .filter((t) => within(t, LETTER_AREAS.recipient))
          .map((t) => t.text);
      expect(await windowOf(2)).toEqual(["Second Respondent"]);
      // A letter's second page shows no address: its text runs on from the top of the page.
      const second = (await pageLayout(doc, doc.getPage(1))).texts;
      expect(second.map((t) => t.text)).not.toContain("First Respondent");
      expect(Math.max(...second.map((t) => t.y))).toBeGreaterThan(
        LETTER_AREAS.recipient.y + LETTER_AREAS.recipient.height,
      );
      expect(pages[1]).toContain("Line 60 of the letter to First Respondent");
    });

    it("is offered on the round's mailing step and on each written round of the timeline", async () => {
      const page = await answer(
        stepLoader({
          request: new Request("http://localhost/nol/creator/traffic-stop/mailing?version=Letters", {
            headers: { cookie: cookie.creator! },
          }),
          params: { form: "creator", cause: "traffic-stop", step: "mailing" },
          context,
        }),
      );
      const data = (await page.json()) as {
        mailedNotice: {
          name: string;
          href: string;
          mailHref: string | null;
          signHref: string | null;
          signed: string | null;
        } | null;
        timeline: { rows: { round: number; noticeHref: string | null }[] };
      };
      const href = "/nol/creator/traffic-stop/notice.pdf?version=Letters&round=1";
      // Or mailed from the app, from a page of its own.
      expect(data.mailedNotice).toEqual({
        name: "Round 1 Notice of Liability",
        href,
        mailHref: "/nol/creator/traffic-stop/mail?version=Letters",
        // Signed before it is mailed, from a page of its own.
        signHref: "/nol/creator/traffic-stop/sign?version=Letters&round=1",
        signed: null,
      });
      expect(data.timeline.rows.find((r) => r.round === 1)?.noticeHref).toBe(href);
    });

    it("answers a round not written yet 404, a bad round 400, and serves an admin but not another member", async () => {
      expect((await noticePdf("creator", "version=Letters&round=2")).status).toBe(404);
      expect((await noticePdf("creator", "version=Nothing&round=1")).status).toBe(404);
      expect((await noticePdf("creator", "version=Letters&round=0")).status).toBe(400);
      expect((await noticePdf("creator", "version=Letters")).status).toBe(400);
      expect((await noticePdf("admin", "version=Letters&round=1&username=creator")).status).toBe(200);
      expect((await noticePdf("member", "version=Letters&round=1&username=creator")).status).toBeGreaterThanOrEqual(
        400,
      );
      expect((await noticePdf("nobody", "version=Letters&round=1")).status).toBe(302);
    });
  });

  describe("template versions", () => {
    const admin = (run: (request: Request) => unknown, path: string, body?: Record<string, string>) =>
      answer(
        run(
          new Request(`http://localhost${path}`, {
            method: body ? "POST" : "GET",
            body: body ? new URLSearchParams(body) : undefined,
            headers: { cookie: cookie.admin! },
          }),
        ),
      );
    const sample = async () =>
      (await database.db.select().from(documentTemplates)).find(
        (t) => t.kind === "notice" && !t.causeCode && !t.round,
      )!;

    it("keeps the version a notice's document was first made with; new documents use the newest", async () => {
      const [round1, round2] = await recordsOf("Records");
      const v1 = await sample();
      await postPreview("creator", idsOf(round1!));
      const [stamped] = await database.db.select().from(notices).where(eq(notices.id, round1!.notice.id));
      expect(stamped!.documentTemplateId).toBe(v1.id);

      const saved = await admin(
        (request) => templateAction({ request, params: { id: String(v1.id) }, context }),
        `/admin/templates/${v1.id}`,
        { body: "# {{title}}\nVersion two for {{claimant.name}}, {{round_label}}." },
      );
      expect(saved.status).toBe(302);
      const [v2] = await database.db.select().from(documentTemplates).where(eq(documentTemplates.version, 2));
      expect(v2).toMatchObject({ kind: "notice", causeCode: null, round: null, createdBy: ids.admin });
      expect(saved.headers.get("location")).toBe(`/admin/templates/${v2!.id}`);

      const kept = await readPdf(await (await postPreview("creator", idsOf(round1!))).arrayBuffer());
      expect(kept.pages[0]).not.toContain("Version two");
      expect(kept.pages[0]).toContain("From: Cara Creator");
      const fresh = await readPdf(await (await postPreview("creator", idsOf(round2!))).arrayBuffer());
      expect(fresh.pages[0]).toContain("Version two for Cara Creator, Round 2.");
      const [stamped2] = await database.db.select().from(notices).where(eq(notices.id, round2!.notice.id));
      expect(stamped2!.documentTemplateId).toBe(v2!.id);
    });

    it("refuses a text with an unknown placeholder with a field error, and saves nothing", async () => {
      const v1 = await sample();
      const count = async () => (await database.db.select().from(documentTemplates)).length;
      const before = await count();
      const refused = await admin(
        (request) => templateAction({ request, params: { id: String(v1.id) }, context }),
        `/admin/templates/${v1.id}`,
        { body: "Dear {{claimant}}" },
      );
      expect(refused.status).toBe(400);
      const { result } = (await refused.json()) as { result: { error: Record<string, string[]> } };
      expect(result.error.body).toEqual(["Unknown placeholder {{claimant}}: use the names listed with the text."]);
      expect(await count()).toBe(before);
    });

    it("makes a template for a cause and round from the text in use, once", async () => {
      const create = () =>
        admin((request) => templatesAction({ request, params: {}, context }), "/admin/templates", {
          intent: "create",
          kind: "true-bill",
          causeCode: "TS",
          round: "5",
        });
      const first = await create();
      expect(first.status).toBe(302);
      const [made] = await database.db.select().from(documentTemplates).where(eq(documentTemplates.causeCode, "TS"));
      expect(made).toMatchObject({ kind: "true-bill", round: 5, version: 1 });
      expect(made!.body).toContain("{{escalation_fee}}");
      expect(first.headers.get("location")).toBe(`/admin/templates/${made!.id}`);
      expect((await create()).headers.get("location")).toBe(`/admin/templates/${made!.id}`);
      const wrong = await admin((request) => templatesAction({ request, params: {}, context }), "/admin/templates", {
        intent: "create",
        kind: "notice",
        round: "5",
      });
      expect(wrong.status).toBe(400);
    });

    it("saves the community's notice, which the documents then print", async () => {
      const saved = await admin((request) => templatesAction({ request, params: {}, context }), "/admin/templates", {
        intent: "disclaimer",
        disclaimer: "Sample community notice: this is not legal advice.",
      });
      expect(saved.status).toBe(302);
      const [round1] = await recordsOf("Records");
      const { pages } = await readPdf(await (await postPreview("creator", idsOf(round1!))).arrayBuffer());
      expect(pages[0]).toContain("Sample community notice: this is not legal advice.");
      const page = await admin((request) => templatesLoader({ request, params: {}, context }), "/admin/templates");
      expect((await page.json()).disclaimer).toBe("Sample community notice: this is not legal advice.");
    });

    it("previews a text on a sample round without saving it", async () => {
      const v1 = await sample();
      const count = (await database.db.select().from(documentTemplates)).length;
      const run = (body?: Record<string, string>) =>
        admin(
          (request) =>
            (body ? templatePreviewAction : templatePreviewLoader)({ request, params: { id: String(v1.id) }, context }),
          `/admin/templates/${v1.id}/preview`,
          body,
        );
      const saved = await run();
      expect(saved.headers.get("content-type")).toBe("application/pdf");
      expect((await readPdf(await saved.arrayBuffer())).pages[0]).toContain("From: Sample Claimant");
      const editing = await run({ body: "Preview only for {{claimant.name}}" });
      expect((await readPdf(await editing.arrayBuffer())).pages[0]).toContain("Preview only for Sample Claimant");
      const wrong = await run({ body: "{{nope}}" });
      expect(wrong.status).toBe(400);
      expect(await wrong.text()).toContain("Unknown placeholder {{nope}}");
      expect((await database.db.select().from(documentTemplates)).length).toBe(count);
    });

    it("is for admins only: a member is refused (403), a visitor sent to log in", async () => {
      const v1 = await sample();
      const as = (username: string, run: (request: Request) => unknown, path: string, body?: Record<string, string>) =>
        answer(
          run(
            new Request(`http://localhost${path}`, {
              method: body ? "POST" : "GET",
              body: body ? new URLSearchParams(body) : undefined,
              headers: { cookie: cookie[username] ?? "" },
            }),
          ),
        );
      const editor = (request: Request) => templateLoader({ request, params: { id: String(v1.id) }, context });
      const save = (request: Request) => templateAction({ request, params: { id: String(v1.id) }, context });
      const list = (request: Request) => templatesLoader({ request, params: {}, context });
      const preview = (request: Request) => templatePreviewLoader({ request, params: { id: String(v1.id) }, context });
      expect((await as("member", list, "/admin/templates")).status).toBe(403);
      expect((await as("creator", editor, `/admin/templates/${v1.id}`)).status).toBe(403);
      expect((await as("member", save, `/admin/templates/${v1.id}`, { body: "x" })).status).toBe(403);
      expect((await as("member", preview, `/admin/templates/${v1.id}/preview`)).status).toBe(403);
      const visitor = await as("nobody", list, "/admin/templates");
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
      for (const id of ["999999", "abc", "0"]) {
        const open = (request: Request) => templateLoader({ request, params: { id }, context });
        expect((await as("admin", open, `/admin/templates/${id}`)).status, id).toBe(404);
      }
    });
  });
});

/** The sample notice shipped before notices were letters, as a community that never edited it still has it. */
const EARLIER_NOTICE_SAMPLE = `# {{title}}
{{round_label}} of "{{nol_version}}" · {{cause.name}}

Date: {{notice_date}}
From: {{claimant.name}}
Reference: {{exhibit}}

To the respondents:
{{respondents}}

This letter is sent by {{claimant.name}} about the matter named "{{nol_version}}" ({{cause.name}}). It asks each respondent listed above to read it and to answer in writing.

Letters sent before this one: {{prior_rounds}}.
Daily amount named by the sender: {{daily_amount}}.

# Mailing
Mailed on: {{mailing_date}}
Tracking number: {{tracking_number}}
Delivered: {{delivered}}

Signed,


____________________________
{{claimant.name}}`;

describe.each(drivers)("the sample templates at start on %s", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("moves an unedited earlier sample to the letters, and keeps what an admin wrote", async () => {
    await database.db.insert(documentTemplates).values([
      { causeCode: null, kind: "notice", round: null, version: 1, body: EARLIER_NOTICE_SAMPLE },
      { causeCode: null, kind: "true-bill", round: null, version: 1, body: "# {{title}}\nOur own bill." },
    ]);
    await seedDocumentDefaults(database.db);
    await seedDocumentDefaults(database.db);
    const rows = await database.db
      .select()
      .from(documentTemplates)
      .orderBy(documentTemplates.kind, documentTemplates.version);
    const byKind = rows.map((r) => [r.kind, r.version, r.body]).sort((a, b) => String(a).localeCompare(String(b)));
    expect(byKind).toEqual([
      ["notice", 1, EARLIER_NOTICE_SAMPLE],
      ["notice", 2, SAMPLE_TEMPLATES.notice],
      ["proof-of-service", 1, SAMPLE_TEMPLATES["proof-of-service"]],
      ["true-bill", 1, "# {{title}}\nOur own bill."],
    ]);
  });
});
