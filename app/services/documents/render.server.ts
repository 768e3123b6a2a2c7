import { and, asc, eq, isNull } from "drizzle-orm";
import type { AppServices } from "~/context";
import type { Database } from "~/db/client.server";
import { causes, nolEntries, notices, respondents, users } from "~/db/schema";
import {
  documentFilename,
  documentKindOf,
  documentTitle,
  letterValues,
  respondentsOf,
  roundMailingOf,
  type DocumentFacts,
} from "~/domain/documents/document-data";
import { documentLines } from "~/domain/documents/layout";
import { signatureToPrint, type SignedCopy } from "~/domain/documents/signature";
import type { DocumentValues } from "~/domain/documents/placeholders";
import { SAMPLE_CAUSE, sampleFacts } from "~/domain/documents/samples";
import type { TemplateScope } from "~/domain/documents/templates";
import { notFound } from "~/domain/errors";
import type { NoticeIds } from "~/domain/documents/notice-ids";
import type { Viewer } from "../session.server";
import { billedSlotsOf } from "../nol/entries.server";
import { labelOfStoredRound } from "../round-labels.server";
import { findNotice, type NoticeRecord } from "./notices.server";
import { renderPdf } from "./pdf.server";
import { latestSignature, type RoundSignatureRow } from "./signatures.server";
import { writtenNoticeRecord } from "./written-notice.server";
import { documentDisclaimer, templateById, templateInUse, type TemplateRow } from "./templates.server";
import { ofVersion } from "../version-keys.server";
import { PDFDocument } from "pdf-lib";
import { isLetterTemplate } from "~/domain/documents/letters";
import type { LetterPages } from "~/domain/documents/notarized-letters";
import { roundServiceOf } from "../nol/service.server";

/** A round's document: its notice's data through its template to a PDF. */

export type RenderedDocument = { bytes: Uint8Array; filename: string; template: Pick<TemplateRow, "id" | "version"> };

type EntryRow = typeof nolEntries.$inferSelect;

const cents = (dollars: unknown) => (typeof dollars === "number" ? Math.round(dollars * 100) : null);

/** What a notice's document is made from: its claim, the entry of its round, the version's creator entry and respondents. */
export async function noticeFacts(db: Database, { notice, claim, cf }: NoticeRecord): Promise<DocumentFacts> {
  // The round's entry is one of its version's: the claim names the member, cause and version.
  const version = await db
    .select()
    .from(nolEntries)
    .where(ofVersion(nolEntries, claim.claimantId, claim.causeCode, claim.nolVersion))
    .orderBy(asc(nolEntries.createdAt));
  const entry = version.find((e) => e.formId === cf.cfFormId && e.entryNumber === cf.cfNumber);
  if (!entry) throw notFound("No such notice");
  const creator = entry.form === "NoLCreator2" ? entry : (version.find((e) => e.form === "NoLCreator2") ?? null);
  const profile = version.find((e) => e.form === "NoLProfileBilling") ?? null;
  const [person] = await db
    .select({ name: users.name, username: users.username })
    .from(users)
    .where(eq(users.id, claim.claimantId));
  const [cause] = await db.select({ name: causes.name }).from(causes).where(eq(causes.code, claim.causeCode));
  const named = creator
    ? await db
        .select({
          slot: respondents.slot,
          name: respondents.name,
          type: respondents.type,
          address: respondents.address,
        })
        .from(respondents)
        .where(eq(respondents.entryId, creator.id))
    : [];
  const round = notice.roundCnt;
  // Each letter states its own envelope: the one reading of the round's service.
  const served = await roundServiceOf(db, { creator, entry, round });
  // The name the member gave on the notice form; a hosted form's entry may have none: the member's own.
  const data = creator?.data as { claimantName?: unknown; claimantAddress?: unknown } | undefined;
  const given = data?.claimantName;
  return {
    round,
    claimantName: typeof given === "string" && given ? given : (person?.name ?? person?.username ?? ""),
    claimantAddress: typeof data?.claimantAddress === "string" ? data.claimantAddress : null,
    cause: { code: claim.causeCode, name: cause?.name ?? claim.causeCode },
    countryCode: claim.countryCode,
    version: claim.nolVersion,
    exhibit: claim.exhibitId,
    noticeDate: notice.createdAt,
    respondents: named,
    dailyAmountCents: cents(creator?.profile?.DailyAmount) ?? cents(profile?.profile?.DailyAmount),
    mailing: roundMailingOf(served),
    served,
    bill: documentKindOf(round) === "notice" ? null : billOf(entry),
    signature: signatureOf(await latestSignature(db, entry.id, round)),
  };
}

function signatureOf(row: RoundSignatureRow | null): DocumentFacts["signature"] {
  if (!row) return null;
  return {
    method: row.method,
    name: row.signerName,
    imagePng: row.imagePng,
    signedAt: row.createdAt,
    recordId: row.id,
    onDownload: row.onDownload,
  };
}

function billOf(bill: EntryRow): DocumentFacts["bill"] {
  return {
    preparationDate: bill.preparationDate,
    firstPreparationDate: bill.preparationDate1tb,
    administrativeJudgmentCents: bill.administrativeJudgment,
    firstAdministrativeJudgmentCents: bill.administrativeJudgment1tb,
    escalationFeeCents: bill.escalationFee,
    totalCents: bill.trueBillTotal,
    firstTotalCents: bill.firstTrueBillTotal,
    billedSlots: billedSlotsOf(bill),
  };
}

/**
 * The template a notice's document is made with: the version it was first made with, or the
 * one in use now, which it then keeps (docs/decisions/020).
 */
async function noticeTemplate(db: Database, record: NoticeRecord): Promise<TemplateRow> {
  const kept = record.notice.documentTemplateId;
  if (kept !== null) return templateById(db, kept);
  const current = await templateInUse(db, {
    causeCode: record.claim.causeCode,
    kind: documentKindOf(record.notice.roundCnt),
    round: record.notice.roundCnt,
  });
  const [claimed] = await db
    .update(notices)
    .set({ documentTemplateId: current.id })
    .where(and(eq(notices.id, record.notice.id), isNull(notices.documentTemplateId)))
    .returning({ id: notices.documentTemplateId });
  if (claimed) return current;
  // Another request made the first document meanwhile: use the version it kept.
  const [row] = await db
    .select({ id: notices.documentTemplateId })
    .from(notices)
    .where(eq(notices.id, record.notice.id));
  return templateById(db, row!.id!);
}

/**
 * A document of a round as a PDF: its template's text filled with the facts, as one letter per
 * respondent when the template makes letters, the community's notice at each page's foot.
 * `pick` keeps some of the letters (the one mailed to a respondent). A round's notice or bill
 * is made as one of its copies (`signed`, see SignedCopy): the member's signature, or a line
 * to sign by hand, where its text takes it; a document no one signs here (a proof of service)
 * has none unless its text marks one.
 */
export async function renderDocument(
  services: AppServices,
  body: string,
  facts: DocumentFacts,
  /** What the document is, for its PDF's title: the round's notice or bill unless given. */
  title = documentTitle(facts.round),
  pick: (letters: DocumentValues[]) => DocumentValues[] = (letters) => letters,
  options: { signed?: SignedCopy; date?: Date } = {},
): Promise<Uint8Array> {
  const { db } = services;
  const label = labelOfStoredRound(services.logger, facts.round, "a notice's document");
  const signs = options.signed !== undefined;
  return renderPdf({
    letters: pick(letterValues(facts, body)).map((values) => documentLines(body, values, { signed: signs })),
    footer: await documentDisclaimer(db),
    title: `${title}: ${facts.claimantName}`,
    subject: `${label} of ${facts.version} (${facts.cause.name})`,
    author: facts.claimantName,
    keywords: [facts.claimantName, label, `round ${facts.round}`, facts.cause.code, facts.version],
    signature: options.signed ? signatureToPrint(facts.signature, options.signed) : null,
    date: options.date,
  });
}

/** A round's notice is dated by the notice: the same notice, signed alike, makes the same PDF. */
const noticeDated = (facts: DocumentFacts) => new Date(facts.noticeDate);

/**
 * A notice's document as a PDF (spec §7 /api/nol/preview, and the document sent to the notary):
 * the member's copy by default, signed when they chose so (docs/decisions/058).
 */
export async function renderNoticePdf(
  services: AppServices,
  record: NoticeRecord,
  options: { signed?: SignedCopy } = {},
): Promise<RenderedDocument> {
  const facts = await noticeFacts(services.db, record);
  const template = await noticeTemplate(services.db, record);
  const signed = options.signed ?? "download";
  return {
    bytes: await renderDocument(services, template.body, facts, undefined, undefined, {
      signed,
      date: noticeDated(facts),
    }),
    filename: documentFilename(facts),
    template: { id: template.id, version: template.version },
  };
}

/**
 * The letter of a round's notice to one respondent, as a PDF of its own: the same letter the
 * round's document holds for that slot (its addresses in the envelope's windows), for the mail
 * house to print, always with the member's signature. A template that makes no letters is one
 * document, mailed whole.
 */
export async function renderRespondentLetterPdf(
  services: AppServices,
  record: NoticeRecord,
  slot: number,
): Promise<Uint8Array> {
  const facts = await noticeFacts(services.db, record);
  const template = await noticeTemplate(services.db, record);
  const at = respondentsOf(facts).findIndex((respondent) => respondent.slot === slot);
  if (at < 0) throw notFound("This round's notice does not name that respondent");
  return renderDocument(
    services,
    template.body,
    facts,
    undefined,
    (letters) => [letters[letters.length > 1 ? at : 0]!],
    { signed: "always", date: noticeDated(facts) },
  );
}

/** A template's text (saved or being edited) on the sample round of its scope, for the editor's preview. */
export async function renderTemplatePreview(
  services: AppServices,
  scope: TemplateScope,
  body: string,
): Promise<Uint8Array> {
  const [cause] = scope.causeCode
    ? await services.db
        .select({ code: causes.code, name: causes.name })
        .from(causes)
        .where(eq(causes.code, scope.causeCode))
    : [];
  const facts = sampleFacts({ kind: scope.kind, round: scope.round, cause: cause ?? SAMPLE_CAUSE });
  // A notice's or a bill's preview shows where the member's signature goes.
  const signs = scope.kind !== "proof-of-service";
  return renderDocument(services, body, facts, undefined, undefined, signs ? { signed: "never" } : {});
}

/**
 * POST /api/nol/preview: the document of the member's own notice the current NoL names, or of
 * the notice a version's notice step is writing.
 */
export async function previewNotice(services: AppServices, viewer: Viewer, ids: NoticeIds): Promise<RenderedDocument> {
  const { db } = services;
  const record = (await findNotice(db, viewer.member, ids)) ?? (await writtenNoticeRecord(db, viewer.member, ids));
  if (!record) throw notFound("No such notice");
  return renderNoticePdf(services, record);
}

/**
 * How many pages each letter of a notice's document takes, in the document's order, with the
 * respondent's slot of each (one entry without a slot for a template that makes no letters):
 * kept with the notarization, to cut each respondent's letter from the notarized PDF. Each
 * letter starts a new page and is laid out on its own, so its pages are those of its PDF alone.
 */
export async function noticeLetterPages(services: AppServices, record: NoticeRecord): Promise<LetterPages> {
  const facts = await noticeFacts(services.db, record);
  const template = await noticeTemplate(services.db, record);
  const letters = letterValues(facts, template.body);
  const named = respondentsOf(facts);
  const slots = isLetterTemplate(template.body) && named.length > 0 ? named.map((r) => r.slot) : [null];
  return Promise.all(
    letters.map(async (letter, i) => {
      // The copy the notary is sent (renderNoticePdf's), so its letters take the same pages.
      const bytes = await renderDocument(services, template.body, facts, undefined, () => [letter], {
        signed: "download",
      });
      const pdf = await PDFDocument.load(bytes, { updateMetadata: false });
      return { slot: slots[i] ?? null, pages: pdf.getPageCount() };
    }),
  );
}
