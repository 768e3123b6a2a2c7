import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";
import { and, asc, desc, eq } from "drizzle-orm";
import { PDFDict, PDFName, PDFRawStream } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { AppServices } from "~/context";
import { auditLog, documentTemplates, mailingOrders, mailings, roundSignatures, sessions, users } from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import { consentWords, SIGN_BEFORE_MAILING, type SignForm } from "~/domain/documents/signature";
import { SAMPLE_TEMPLATES } from "~/domain/documents/samples";
import { isDomainError } from "~/domain/errors";
import { findNotice, type NoticeRecord } from "~/services/documents/notices.server";
import { renderNoticePdf, renderRespondentLetterPdf } from "~/services/documents/render.server";
import { signPage, signRound } from "~/services/documents/sign-round.server";
import { checkAddresses, mailPage } from "~/services/mailings/order.server";
import { payOrder } from "~/services/mailings/order-pay.server";
import { sendRoundLetters } from "~/services/mailings/send.server";
import { addEditor } from "~/services/nol/editors.server";
import { entriesOf, versionState } from "~/services/nol/entries.server";
import type { PageAddress } from "~/services/nol/pages.server";
import { loadViewer, type Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import {
  bothRespondents,
  demoCreator,
  MAIL_PAGE_ADDRESSES,
  mailingsOf,
  roundOneMailing,
  writeRoundOne,
} from "../helpers/mailings";
import { readPdf } from "../helpers/pdf";
import { CREATOR_PAGES, SIGNED_FROM, signRoundAs } from "../helpers/signatures";
import { createSession } from "../helpers/users";
import { action as signAction } from "~/routes/nol.$form.$cause.sign";
import { siteCookies } from "~/services/session.server";

const sha256 = (value: string | Uint8Array) => createHash("sha256").update(value).digest("hex");

/** A real PNG of a signature's size: a dark stroke across a white field. */
function signaturePng(width = 400, height = 120): Buffer {
  const crc32 = (bytes: Buffer) => {
    let crc = 0xffffffff;
    for (const byte of bytes) {
      crc ^= byte;
      for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
    }
    return (crc ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8);
  const rows = Buffer.alloc((width + 1) * height, 0xff);
  for (let y = 0; y < height; y++) {
    rows[y * (width + 1)] = 0;
    if (Math.abs(y - height / 2) < 3) rows.fill(0x20, y * (width + 1) + 1, (y + 1) * (width + 1));
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The images a PDF holds. */
function imagesIn(doc: Awaited<ReturnType<typeof readPdf>>["doc"]) {
  return doc.context
    .enumerateIndirectObjects()
    .map(([, object]) => object)
    .filter(
      (object): object is PDFRawStream =>
        object instanceof PDFRawStream &&
        object.dict instanceof PDFDict &&
        object.dict.get(PDFName.of("Subtype")) === PDFName.of("Image"),
    );
}

const CAPTION = /Signed electronically by (.+) on (.+) · record ([0-9a-f]{8})/;
const HAND_LINE = "Signed: ______________________________";

describe.each(drivers)("signing a round's notice (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let creator: Viewer;

  const entryOf = async (version: string) =>
    versionState(await entriesOf(database.db, creator.member.id, "TS"), version).creator!;
  const noticeOf = async (version: string): Promise<NoticeRecord> => {
    const entry = await entryOf(version);
    return (await findNotice(database.db, creator.member, {
      cf_number: entry.entryNumber,
      cf_version: version,
      round_cnt: 1,
    }))!;
  };
  const textOf = async (bytes: Uint8Array) => (await readPdf(bytes)).pages.join("\n");
  const signaturesOf = async (version: string) =>
    database.db
      .select()
      .from(roundSignatures)
      .where(eq(roundSignatures.entryId, (await entryOf(version)).id))
      .orderBy(asc(roundSignatures.createdAt));
  const sign = (
    viewer: Viewer,
    version: string,
    form: Partial<SignForm> & { round?: number } = {},
    address: PageAddress = CREATOR_PAGES,
  ) =>
    signRound(
      services,
      viewer,
      address,
      {
        cause: "traffic-stop",
        version,
        round: 1,
        method: "typed",
        name: "Cara Creator",
        imagePng: null,
        onDownload: true,
        ...form,
      },
      SIGNED_FROM,
    );
  /** What a promise was refused with: the error's kind and message. */
  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => null,
      (e: unknown) => e,
    );
    if (!isDomainError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
    return { kind: error.kind, message: error.message, fieldErrors: error.fieldErrors };
  };

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    services = testContext(database).app!;
    creator = await demoCreator(database.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("keeps who signed, when, from which session and address, the consent's words and the SHA-256 of the notice as it stood", async () => {
    await writeRoundOne(services, creator, "Signed", { signed: false });
    const before = await renderNoticePdf(services, await noticeOf("Signed"), { signed: "never" });
    const { signature, back } = await sign(creator, "Signed");
    expect(back).toBe("/nol/creator/traffic-stop/sign?version=Signed&round=1");

    const [row] = await signaturesOf("Signed");
    expect(row).toMatchObject({
      id: signature.id,
      userId: creator.member.id,
      entryId: (await entryOf("Signed")).id,
      round: 1,
      method: "typed",
      signerName: "Cara Creator",
      imagePng: null,
      consentText: consentWords({ document: "Round 1 Notice of Liability", version: "Signed" }),
      documentSha256: sha256(before.bytes),
      templateId: before.template.id,
      onDownload: true,
      ip: SIGNED_FROM.ip,
      userAgent: SIGNED_FROM.userAgent,
    });
    // The session is named by a hash of its id, never by the id itself.
    expect(row!.sessionRef).toBe(sha256(creator.session.id));
    expect(JSON.stringify(row)).not.toContain(creator.session.id);
    expect(Date.now() - row!.createdAt.getTime()).toBeLessThan(60_000);

    // The notice rendered unsigned again, a day later, is the same document byte for byte: its SHA-256 checks.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 86_400_000);
    try {
      const again = await renderNoticePdf(services, await noticeOf("Signed"), { signed: "never" });
      expect(sha256(again.bytes)).toBe(row!.documentSha256);
    } finally {
      vi.useRealTimers();
    }
    // The signed copy is another document.
    const signed = await renderNoticePdf(services, await noticeOf("Signed"));
    expect(sha256(signed.bytes)).not.toBe(row!.documentSha256);

    const [entry] = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "nol.round.sign"), eq(auditLog.entityId, row!.id)));
    expect(entry).toMatchObject({
      actorUserId: creator.user.id,
      agentUserId: null,
      entity: "round_signature",
      data: { causeCode: "TS", version: "Signed", round: 1, method: "typed", documentSha256: row!.documentSha256 },
    });
  });

  it("prints a typed signature with its record on the downloaded notice, and a line to sign by hand before", async () => {
    await writeRoundOne(services, creator, "Typed", { signed: false });
    const unsigned = await textOf((await renderNoticePdf(services, await noticeOf("Typed"))).bytes);
    expect(unsigned).toContain(HAND_LINE);
    expect(unsigned).not.toMatch(CAPTION);

    const { signature } = await sign(creator, "Typed");
    const pages = (await readPdf((await renderNoticePdf(services, await noticeOf("Typed"))).bytes)).pages;
    // One letter per respondent, each signed, none with a hand line.
    const letters = [1, 2].map((n) => pages.filter((page) => page.includes(`Letter ${n} of 2`)).join("\n"));
    for (const letter of letters) {
      const [, name, , record] = CAPTION.exec(letter) ?? [];
      expect(name).toBe("Cara Creator");
      expect(record).toBe(signature.id.slice(0, 8));
      expect(letter).not.toContain(HAND_LINE);
    }
  });

  it("keeps a drawn signature as its PNG and draws it as an image, with the caption naming the record", async () => {
    await writeRoundOne(services, creator, "Drawn", { signed: false });
    const png = signaturePng();
    const { signature } = await sign(creator, "Drawn", { method: "drawn", imagePng: png.toString("base64") });
    expect(signature).toMatchObject({ method: "drawn", imagePng: png.toString("base64") });
    const { doc, pages } = await readPdf((await renderNoticePdf(services, await noticeOf("Drawn"))).bytes);
    expect(imagesIn(doc)).toHaveLength(1);
    expect(pages.join("\n")).toContain(`· record ${signature.id.slice(0, 8)}`);
    // The unsigned notice has no image.
    const unsigned = await readPdf(
      (await renderNoticePdf(services, await noticeOf("Drawn"), { signed: "never" })).bytes,
    );
    expect(imagesIn(unsigned.doc)).toHaveLength(0);
  });

  it("refuses a drawing the PDF library cannot read, beside the drawing, and keeps nothing", async () => {
    await writeRoundOne(services, creator, "Broken drawing", { signed: false });
    const broken = Buffer.concat([signaturePng().subarray(0, 33), Buffer.from("not a deflate stream at all")]);
    const refused = await refusal(
      sign(creator, "Broken drawing", { method: "drawn", imagePng: broken.toString("base64") }),
    );
    expect(refused).toMatchObject({
      kind: "invalid",
      fieldErrors: { drawing: [expect.stringContaining("could not be read")] },
    });
    expect(await signaturesOf("Broken drawing")).toEqual([]);
  });

  it("leaves a line to sign by hand on the download when the member chose so, while the mail house's letter is signed", async () => {
    await writeRoundOne(services, creator, "Hand line", { signed: false });
    const { signature } = await sign(creator, "Hand line", { onDownload: false });
    const download = await textOf((await renderNoticePdf(services, await noticeOf("Hand line"))).bytes);
    expect(download).toContain(HAND_LINE);
    expect(download).not.toMatch(CAPTION);
    const letter = await textOf(await renderRespondentLetterPdf(services, await noticeOf("Hand line"), 2));
    expect(CAPTION.exec(letter)?.[3]).toBe(signature.id.slice(0, 8));
    expect(letter).not.toContain(HAND_LINE);
  });

  it("prints the newest signature when the member signs again, each kept as a record of its own", async () => {
    await writeRoundOne(services, creator, "Again", { signed: false });
    await sign(creator, "Again", { name: "Cara Creator" });
    const { signature } = await sign(creator, "Again", { name: "Cara B. Creator" });
    expect((await signaturesOf("Again")).map((s) => s.signerName)).toEqual(["Cara Creator", "Cara B. Creator"]);
    const letter = await textOf(await renderRespondentLetterPdf(services, await noticeOf("Again"), 1));
    const [, name, , record] = CAPTION.exec(letter) ?? [];
    expect([name, record]).toEqual(["Cara B. Creator", signature.id.slice(0, 8)]);
    const page = await signPage(services, creator, CREATOR_PAGES, {
      cause: "traffic-stop",
      version: "Again",
      round: "1",
    });
    expect(page.signature).toMatchObject({
      name: "Cara B. Creator",
      recordId: signature.id,
      sha256: signature.documentSha256,
    });
  });

  it("refuses an admin representing the member: the member signs as themselves", async () => {
    await writeRoundOne(services, creator, "Agent", { signed: false });
    const [admin] = await database.db.select().from(users).where(eq(users.username, "admin"));
    const session = await createSession(database.db, admin!.id);
    await database.db.update(sessions).set({ agentUserId: creator.member.id }).where(eq(sessions.id, session.id));
    const agent = (await loadViewer(database.db, session.id))!;
    expect(agent.agent?.id).toBe(creator.member.id);

    const refused = await refusal(sign(agent, "Agent"));
    expect(refused.kind).toBe("forbidden");
    expect(refused.message).toContain("an admin representing a member cannot sign for them");
    expect(await signaturesOf("Agent")).toEqual([]);
    // The page says so instead of offering the form.
    const page = await signPage(services, agent, CREATOR_PAGES, { cause: "traffic-stop", version: "Agent", round: 1 });
    expect(page.refusal).toContain("cannot sign for them");
  });

  it("refuses an editor of the member's notices", async () => {
    await writeRoundOne(services, creator, "Editor", { signed: false });
    await addEditor(services, creator, "member");
    const [member] = await database.db.select().from(users).where(eq(users.username, "member"));
    const editor = (await loadViewer(database.db, (await createSession(database.db, member!.id)).id))!;
    const refused = await refusal(sign(editor, "Editor", {}, { ...CREATOR_PAGES, username: "creator" }));
    expect(refused).toMatchObject({
      kind: "forbidden",
      message: expect.stringContaining("an editor of their notices"),
    });
    expect(await signaturesOf("Editor")).toEqual([]);
  });

  it("answers a round not written yet, or a version or round that is none, not found", async () => {
    await writeRoundOne(services, creator, "Round two", { signed: false });
    expect((await refusal(sign(creator, "Nothing"))).kind).toBe("not-found");
    expect((await refusal(sign(creator, "Round two", { round: 2 }))).kind).toBe("not-found");
    for (const round of [2, 0, "x"]) {
      const page = signPage(services, creator, CREATOR_PAGES, { cause: "traffic-stop", version: "Round two", round });
      expect((await refusal(page)).kind).toBe("not-found");
    }
  });

  it("refuses to send the letters of a round not signed, then sends them once it is, the signature on the letter the mail house prints", async () => {
    await writeRoundOne(services, creator, "Gate", { signed: false });
    const refused = await refusal(sendRoundLetters(services, creator.member, roundOneMailing("Gate"), bothRespondents));
    expect(refused).toEqual({ kind: "conflict", message: SIGN_BEFORE_MAILING, fieldErrors: undefined });
    expect(await mailingsOf(database.db, creator.member.id, "Gate")).toEqual([]);

    const signature = await signRoundAs(services, creator, "Gate", { name: "Cara Creator" });
    const sent = await sendRoundLetters(services, creator.member, roundOneMailing("Gate"), bothRespondents);
    expect(sent.map((letter) => letter.outcome)).toEqual(["sent", "sent"]);
    for (const row of await mailingsOf(database.db, creator.member.id, "Gate")) {
      const printed = await services.providers.mailhouseSandbox!.printed(row.letterId!);
      const text = await textOf(printed!);
      const [, name, , record] = CAPTION.exec(text) ?? [];
      expect([row.slot, name, record]).toEqual([row.slot, "Cara Creator", signature.id.slice(0, 8)]);
      expect(text).not.toContain(HAND_LINE);
    }
  });

  it("refuses to pay for the letters of a round not signed; the mail page asks to sign first, then says who signed", async () => {
    const address: PageAddress = CREATOR_PAGES;
    const input = { cause: "traffic-stop", version: "Pay gate" };
    await writeRoundOne(services, creator, "Pay gate", { signed: false });
    const form = new FormData();
    for (const [name, value] of Object.entries(MAIL_PAGE_ADDRESSES)) form.set(name, value);
    expect((await checkAddresses(services, creator, address, { ...input, form })).ok).toBe(true);

    const before = await mailPage(services, creator, address, input);
    expect(before.sign).toEqual({ href: "/nol/creator/traffic-stop/sign?version=Pay+gate&round=1", signed: null });
    const confirm = new FormData();
    for (const [name, value] of Object.entries({ intent: "pay", "confirm.1": "on", "confirm.2": "on" }))
      confirm.set(name, value);
    const attempt = "00000000-0000-4000-8000-00000000a001";
    const pay = () => payOrder(services, creator, address, { ...input, form: confirm, attempt, pagePath: "/mail" });
    expect(await refusal(pay())).toMatchObject({ kind: "conflict", message: SIGN_BEFORE_MAILING });
    const [order] = await database.db
      .select()
      .from(mailingOrders)
      .where(eq(mailingOrders.descriptiveVersion, "Pay gate"));
    expect(order).toMatchObject({ status: "draft", checkoutId: null });

    await signRoundAs(services, creator, "Pay gate", { name: "Cara Creator" });
    const after = await mailPage(services, creator, address, input);
    expect(after.sign?.signed).toMatch(/^Signed by Cara Creator on /);
    expect((await pay()).next).toMatch(/^\/subscription\/unsafe\/card-plus\?checkout=/);
    const [paying] = await database.db
      .select()
      .from(mailingOrders)
      .where(eq(mailingOrders.descriptiveVersion, "Pay gate"));
    expect(paying!.status).toBe("paying");
    expect(await database.db.select().from(mailings).where(eq(mailings.descriptiveVersion, "Pay gate"))).toEqual([]);
  });

  it("answers a bad sign form with its fields' errors (400), never a fault, and signs a good one by its plain form", async () => {
    await writeRoundOne(services, creator, "Route", { signed: false });
    const context = testContext(database);
    const cookie = await siteCookies(context.app!.config).session.serialize(creator.session.id);
    const post = async (fields: Record<string, string>) => {
      const request = new Request("http://localhost/nol/creator/traffic-stop/sign?version=Route&round=1", {
        method: "POST",
        headers: { cookie, "user-agent": "route-test" },
        body: new URLSearchParams(fields),
      });
      try {
        return (await signAction({ request, params: { form: "creator", cause: "traffic-stop" }, context })) as Response;
      } catch (thrown) {
        if (thrown instanceof Response) return thrown;
        throw thrown;
      }
    };
    const errorsOf = async (response: Response) =>
      ((await response.json()) as { result: { error: Record<string, string[]> } }).result.error;

    const unticked = await post({ method: "typed", name: "Cara Creator" });
    expect(unticked.status).toBe(400);
    expect(await errorsOf(unticked)).toMatchObject({ consent: [expect.stringContaining("Tick the box")] });
    const badDrawing = await post({
      method: "drawn",
      name: "Cara Creator",
      consent: "on",
      drawing: "data:image/png;base64,////",
    });
    expect(badDrawing.status).toBe(400);
    expect(await errorsOf(badDrawing)).toMatchObject({ drawing: [expect.stringContaining("not a PNG")] });
    const oddMethod = await post({ method: "stamped", name: "C", consent: "on", onDownload: "maybe" });
    expect(oddMethod.status).toBe(400);
    expect(Object.keys(await errorsOf(oddMethod)).sort()).toEqual(["method", "name", "onDownload"]);
    expect(await signaturesOf("Route")).toEqual([]);

    const signed = await post({ method: "typed", name: "Cara Creator", consent: "on", onDownload: "hand" });
    expect(signed.status).toBe(302);
    expect(signed.headers.get("location")).toBe("/nol/creator/traffic-stop/sign?version=Route&round=1");
    expect(await signaturesOf("Route")).toMatchObject([
      { signerName: "Cara Creator", onDownload: false, userAgent: "route-test", ip: "203.0.113.7" },
    ]);
  });
});

describe.each(drivers)("the sample templates with the signature's mark (%s)", (driver) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(driver);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  it("moves the letters with a hand line, never edited, to the letters with '@signature'", async () => {
    const notice = SAMPLE_TEMPLATES.notice.replace(
      "\n\n@signature\n",
      "\n\nSigned,\n\n\n____________________________\n",
    );
    const bill = SAMPLE_TEMPLATES["true-bill"].replace("\n\n@signature\n", "\n\n\n____________________________\n");
    expect(notice).not.toBe(SAMPLE_TEMPLATES.notice);
    expect(bill).not.toBe(SAMPLE_TEMPLATES["true-bill"]);
    await database.db.insert(documentTemplates).values([
      { causeCode: null, kind: "notice", round: null, version: 1, body: notice },
      { causeCode: null, kind: "true-bill", round: null, version: 1, body: bill },
    ]);
    await seedDocumentDefaults(database.db);
    const newest = async (kind: "notice" | "true-bill") =>
      (
        await database.db
          .select()
          .from(documentTemplates)
          .where(eq(documentTemplates.kind, kind))
          .orderBy(desc(documentTemplates.version))
          .limit(1)
      )[0]!;
    expect(await newest("notice")).toMatchObject({ version: 2, body: SAMPLE_TEMPLATES.notice });
    expect(await newest("true-bill")).toMatchObject({ version: 2, body: SAMPLE_TEMPLATES["true-bill"] });
  });
});
