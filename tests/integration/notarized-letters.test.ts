import type { AppLoadContext } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { notarizations, users } from "~/db/schema";
import { seedDemo, seedDocumentDefaults } from "~/db/seed.server";
import type { PostalAddress } from "~/domain/mailing/address";
import { notaryMark } from "~/providers/notary/certificate.server";
import { signRound } from "~/services/documents/sign-round.server";
import { createTemplateScope, saveTemplateVersion } from "~/services/documents/templates.server";
import { sendRoundLetters, type ConfirmedRecipient } from "~/services/mailings/send.server";
import { deliverNotarySandboxEvents, pollOpenNotarizations } from "~/services/notary/events.server";
import { notarize } from "~/services/notary/notarize.server";
import { loadViewer, type Viewer } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import {
  bothRespondents,
  demoCreator,
  mailingsOf,
  officer,
  ROUND_ONE_FIELDS,
  roundOneMailing,
} from "../helpers/mailings";
import { readPdf } from "../helpers/pdf";
import { formOf } from "../helpers/requests";
import { submitDated } from "../helpers/steps";
import { createSession } from "../helpers/users";
import { PROOF_API_KEY, PROOF_WEBHOOK_SECRET, proof } from "../mocks/proof";

/** Round 1 to three respondents: the officer, the clerk and a deputy. */
const THREE_RESPONDENTS = {
  ...ROUND_ONE_FIELDS,
  r3Name: "Deputy Third",
  r3Type: "Official",
  r3Address: "3 Jail Road, Springfield, IL 62701",
};
const deputy: PostalAddress = { ...officer, name: "Deputy Third", line1: "3 JAIL RD" };
const allThree: ConfirmedRecipient[] = [...bothRespondents, { slot: 3, address: deputy }];
const NAMES = { 1: "Officer Example", 2: "Clerk Extra", 3: "Deputy Third" } as const;

const CERTIFICATE = "Certificate of notarial act";

describe.each(drivers)("the letters mailed from a notarized notice (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let proofContext: AppLoadContext;
  let creator: Viewer;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    await seedDemo(database.db, { demoPassword: "memberhall-demo" });
    await seedDocumentDefaults(database.db);
    services = testContext(database).app!;
    proofContext = testContext(database, { NOTARY: "proof", PROOF_API_KEY, PROOF_WEBHOOK_SECRET });
    creator = await demoCreator(database.db);
  });
  afterAll(async () => {
    await database?.dispose();
  });

  /** The member signs round 1's notice of the version electronically, as the sign page does (a notice is mailed signed). */
  const signNotice = (version: string) =>
    signRound(
      services,
      creator,
      { segment: "creator", form: "NoLCreator2" },
      { cause: "TS", version, round: 1, method: "typed", name: "Cara Creator", imagePng: null, onDownload: true },
      { ip: null, userAgent: null },
    );

  /** Writes round 1 of a new version to the three respondents, and signs it: its notice's ids. */
  async function writeRound(version: string) {
    const { entryId } = await submitDated(services, creator, creator.member, {
      causeCode: "TS",
      version,
      kind: "notice",
      form: formOf(THREE_RESPONDENTS),
    });
    await signNotice(version);
    return { ids: { cf_number: Number(entryId.split("-")[1]), cf_version: version, round_cnt: 1 } };
  }

  /** Sends the round's notice to the sandbox notary; signed there (completed) unless told otherwise, and the mark it made. */
  async function notarizeRound(ids: Awaited<ReturnType<typeof writeRound>>["ids"], { sign = true } = {}) {
    const sent = await notarize(services, creator, { ...ids, draft: false });
    if (!("notice" in sent)) throw new Error(sent.error);
    const nzId = sent.notice.notarize!.nz_id!;
    if (sign) {
      await services.providers.notarySandbox!.meetNotary(nzId);
      await services.providers.notarySandbox!.sign(nzId);
      await deliverNotarySandboxEvents(services);
    }
    const [row] = await database.db.select().from(notarizations).where(eq(notarizations.nzId, nzId));
    expect(row!.nzStatus).toBe(sign ? "completed" : "sent");
    // Signed now: the transaction was last updated by the signing.
    return { row: row!, mark: notaryMark({ transactionId: nzId, signedAt: row!.nzUpdated! }) };
  }

  /** Mails round 1 of the version to the respondents; the PDF the mail house printed for each, by slot. */
  async function mailRound(version: string, on: AppServices = services, recipients = allThree) {
    const sent = await sendRoundLetters(on, creator.member, roundOneMailing(version), recipients);
    expect(sent.map((letter) => letter.outcome)).toEqual(recipients.map(() => "sent"));
    const printed = new Map<number, string[]>();
    for (const row of await mailingsOf(database.db, creator.member.id, version)) {
      const pdf = await on.providers.mailhouseSandbox!.printed(row.letterId!);
      printed.set(row.slot, (await readPdf(pdf!)).pages);
    }
    return printed;
  }

  /** What a freshly rendered letter to one respondent shows: its own numbers only, no notary's. */
  function expectRenderedLetter(pages: string[], slot: 1 | 2 | 3) {
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) {
      expect(page).not.toContain("Notarized");
      expect(page).not.toContain(CERTIFICATE);
      expect(page).not.toMatch(/Letter \d of \d/);
    }
    expect(pages[0]).toContain(`To: ${NAMES[slot]}`);
  }

  it("keeps each letter's pages with the notarization, and marks every page of the notarized notice", async () => {
    const { ids } = await writeRound("Marked");
    const { row, mark } = await notarizeRound(ids);
    expect(row.letterPages?.map((letter) => letter.slot)).toEqual([1, 2, 3]);
    const letters = row.letterPages!;
    expect(letters.every((letter) => letter.pages >= 1)).toBe(true);

    const { pages } = await readPdf((await services.providers.notary.notarizedDocument(row.nzId!))!);
    const documentPages = letters.reduce((sum, letter) => sum + letter.pages, 0);
    expect(pages).toHaveLength(documentPages + 1);
    pages.forEach((page) => expect(page).toContain(mark));
    // The letters in the document's order, each page holding its own letter's number.
    let at = 0;
    for (const [l, letter] of letters.entries()) {
      for (let p = 0; p < letter.pages; p++, at++) expect(pages[at]).toContain(`Letter ${l + 1} of 3 · Page ${p + 1}`);
    }
    expect(pages.at(-1)).toContain(CERTIFICATE);
  });

  it("mails each respondent only their own letter, then the notary's pages, the mark on every page (signed before it went to the notary)", async () => {
    const { ids } = await writeRound("Mailed notarized");
    const { row, mark } = await notarizeRound(ids);
    const printed = await mailRound("Mailed notarized");

    for (const [l, letter] of row.letterPages!.entries()) {
      const slot = letter.slot as 1 | 2 | 3;
      const pages = printed.get(slot)!;
      expect(pages).toHaveLength(letter.pages + 1);
      pages.forEach((page) => expect(page).toContain(mark));
      const own = pages.slice(0, -1);
      own.forEach((page) => expect(page).toMatch(new RegExp(`Letter ${l + 1} of 3 · Page \\d`)));
      // Addressed to this respondent only (the letter lists all three it is sent to).
      expect(own[0]).toContain(`To: ${NAMES[slot]}`);
      for (const other of Object.values(NAMES).filter((name) => name !== NAMES[slot]))
        own.forEach((page) => expect(page).not.toContain(`To: ${other}`));
      expect(pages.at(-1)).toContain(CERTIFICATE);
    }
  });

  it("mails the letter as rendered when the notice was not notarized", async () => {
    await writeRound("Not notarized");
    const printed = await mailRound("Not notarized");
    expectRenderedLetter(printed.get(1)!, 1);
  });

  it("mails the letter as rendered while the notarization is not completed", async () => {
    const { ids } = await writeRound("Not signed yet");
    const { row } = await notarizeRound(ids, { sign: false });
    expect(row.letterPages).toHaveLength(3);
    const printed = await mailRound("Not signed yet");
    expectRenderedLetter(printed.get(1)!, 1);
  });

  it("mails the letter as rendered when the member signed the notice again after it went to the notary", async () => {
    const { ids } = await writeRound("Signed after");
    await notarizeRound(ids);
    await signNotice("Signed after");
    const printed = await mailRound("Signed after");
    expectRenderedLetter(printed.get(1)!, 1);
  });

  it("mails the letter as rendered when the notarized PDF's pages are not those of the letters counted", async () => {
    const { ids } = await writeRound("Other document");
    const { row } = await notarizeRound(ids);
    await database.db
      .update(notarizations)
      .set({ letterPages: row.letterPages!.map((letter) => ({ ...letter, pages: letter.pages + 5 })) })
      .where(eq(notarizations.id, row.id));
    const printed = await mailRound("Other document");
    expectRenderedLetter(printed.get(2)!, 2);
  });

  it("mails the letter as rendered when the notarization was made at another notary than the one in use", async () => {
    const { ids } = await writeRound("Other notary");
    await notarizeRound(ids);
    const printed = await mailRound("Other notary", proofContext.app!);
    expectRenderedLetter(printed.get(3)!, 3);
  });

  it("with Proof, cuts the respondent's letter from Proof's notarized PDF, with whatever pages Proof adds", async () => {
    proof.reset();
    const proofServices = proofContext.app!;
    const { ids } = await writeRound("Proof letters");
    const sent = await notarize(proofServices, creator, { ...ids, draft: false });
    if (!("notice" in sent)) throw new Error(sent.error);
    const nzId = sent.notice.notarize!.nz_id!;
    proof.complete(nzId);
    await pollOpenNotarizations(proofServices);
    const [row] = await database.db.select().from(notarizations).where(eq(notarizations.nzId, nzId));
    expect(row).toMatchObject({ provider: "proof", nzStatus: "completed" });

    const printed = await mailRound("Proof letters", proofServices);
    // The fake Proof's notarized PDF is the document as sent: no page of its own after the letters.
    for (const [l, letter] of row!.letterPages!.entries()) {
      const pages = printed.get(letter.slot!)!;
      expect(pages).toHaveLength(letter.pages);
      pages.forEach((page) => expect(page).toContain(`Letter ${l + 1} of 3`));
    }
  });

  // Last: the template it saves is the one every notice made after it uses.
  it("cuts a letter of several pages from among letters of several pages", async () => {
    const [adminUser] = await database.db.select().from(users).where(eq(users.username, "admin"));
    const admin = (await loadViewer(database.db, (await createSession(database.db, adminUser!.id)).id))!;
    const { template } = await createTemplateScope(services, admin, { causeCode: "TS", kind: "notice", round: 1 });
    const longer = Array.from({ length: 50 }, (_, i) => `Paragraph ${i + 1} of what the respondent is asked to read.`);
    await saveTemplateVersion(services, admin, template.id, `${template.body}\n\n${longer.join("\n\n")}`);

    const { ids } = await writeRound("Long letters");
    const { row, mark } = await notarizeRound(ids);
    const letters = row.letterPages!;
    expect(letters.map((letter) => letter.slot)).toEqual([1, 2, 3]);
    expect(letters.every((letter) => letter.pages >= 2)).toBe(true);

    const printed = await mailRound("Long letters", services, [bothRespondents[1]!]);
    const pages = printed.get(2)!;
    const second = letters[1]!.pages;
    expect(pages).toHaveLength(second + 1);
    pages.forEach((page) => expect(page).toContain(mark));
    pages.slice(0, second).forEach((page, p) => expect(page).toContain(`Letter 2 of 3 · Page ${p + 1} of ${second}`));
    expect(pages[0]).toContain(`To: ${NAMES[2]}`);
    expect(pages.at(-1)).toContain(CERTIFICATE);
  });
});
