import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { z } from "zod";
import type { AppServices } from "~/context";
import { mailings, nolEntries } from "~/db/schema";
import { letterPagesSchema, notarizedLetterPages } from "~/domain/documents/notarized-letters";
import { postalAddressSchema } from "~/domain/mailing/address";
import { mailingPricesSchema } from "~/domain/mailing/quote";
import { letterKey, mayResend, RECOVERABLE_FOR_MS, SENDING_CLAIM_MS } from "~/domain/mailing/round-letters";
import { conflict, invalid, notFound } from "~/domain/errors";
import { versionSchema } from "~/domain/nol/entries";
import { NOTICE_ROUNDS } from "~/domain/nol/rounds";
import { roundName } from "~/domain/nol/timeline";
import { isProviderError } from "~/providers/errors";
import type { MailedLetter } from "~/providers/mailhouse/types";
import { findNotice, type NoticeRecord } from "../documents/notices.server";
import { renderRespondentLetterPdf } from "../documents/render.server";
import { latestSignature, requireSigned } from "../documents/signatures.server";
import { entriesOf, mailingRecipients, versionState } from "../nol/entries.server";
import type { UserRow } from "../viewer.server";
import { adoptEarlyEvents, applyMailEvent } from "./events.server";
import { lockVersion, recordRound, type MailingRow } from "./records.server";

/**
 * "Mail it for me": one certified letter per respondent of a round, exactly once. Each letter's
 * row is claimed first (INSERT … ON CONFLICT DO NOTHING on its entry, round and slot); only the
 * request that claimed it asks the mail house, with the letter's idempotency key. A row left
 * "sending" (a time-out, a crash) is taken over by the next request or the poll, which asks the
 * mail house again with the same key and so gets the letter made before, if one was.
 * docs/decisions/049-mailings-exactly-once.md.
 */

export const roundMailingSchema = z.object({
  causeCode: z.string().trim().min(1).max(40),
  version: versionSchema,
  round: z.number().int().min(1).max(200),
  /** The member's return address, as confirmed. */
  from: postalAddressSchema,
  /** What each envelope costs the member (the quote they paid). */
  prices: mailingPricesSchema,
  /** The order that paid for the letters, when one did. */
  orderId: z.string().uuid().nullish(),
});
export type RoundMailing = z.input<typeof roundMailingSchema>;

export const confirmedRecipientsSchema = z
  .array(z.object({ slot: z.number().int().min(1).max(16), address: postalAddressSchema }))
  .min(1, "Choose at least one respondent to mail the notice to")
  .refine((list) => new Set(list.map((r) => r.slot)).size === list.length, "Each respondent is mailed one letter");
export type ConfirmedRecipient = z.input<typeof confirmedRecipientsSchema>[number];

/**
 * What became of one respondent's letter: sent now; kept (sent before, or refused before and
 * not asked again); in progress (another request is sending it); unavailable (the mail house
 * did not answer: nothing is sent twice when it is tried again); refused (the mail house's
 * words, nothing sent); unconfirmed (its answer was lost too long ago to ask again: an admin's).
 */
export type LetterOutcome = {
  slot: number;
  outcome: "sent" | "kept" | "in_progress" | "unavailable" | "refused" | "unconfirmed";
  mailing: MailingRow;
  message: string | null;
};

type Claim = { row: MailingRow; mine: boolean };

/** The round's entry: the creator entry for a notice, the true bill's own for a bill. */
function roundEntry(state: ReturnType<typeof versionState>, round: number) {
  return round <= NOTICE_ROUNDS
    ? state.creator
    : (state.bills.find((bill) => bill.tbValue === round - NOTICE_ROUNDS) ?? null);
}

/**
 * Sends the round's notice to each confirmed recipient, one letter each, whatever else sends it
 * at the same moment. New letters go out only while the version's next step is the round's
 * mailing; a repeat afterwards answers the letters made.
 */
export async function sendRoundLetters(
  services: AppServices,
  member: Pick<UserRow, "id">,
  round: RoundMailing,
  recipients: readonly ConfirmedRecipient[],
  options: { now?: Date } = {},
): Promise<LetterOutcome[]> {
  const now = options.now ?? new Date();
  const mailing = roundMailingSchema.parse(round);
  const parsed = confirmedRecipientsSchema.safeParse(recipients);
  if (!parsed.success) throw invalid(parsed.error.issues[0]?.message ?? "Check the addresses");
  const state = versionState(await entriesOf(services.db, member.id, mailing.causeCode), mailing.version);
  const entry = roundEntry(state, mailing.round);
  if (!entry) throw notFound("This round has not been written yet");
  await requireSigned(services.db, entry.id, mailing.round);
  const mailingNow =
    (state.step.kind === "mailing" || state.step.kind === "true-bill-mailing") && state.step.round === mailing.round;
  const named = new Set((await mailingRecipients(services.db, state)).map((r) => r.slot));
  const outcomes: LetterOutcome[] = [];
  for (const recipient of parsed.data) {
    if (mailingNow && !named.has(recipient.slot))
      throw invalid(`Respondent ${recipient.slot} is not mailed this round`);
    const values = {
      userId: member.id,
      entryId: entry.id,
      causeCode: mailing.causeCode,
      descriptiveVersion: mailing.version,
      round: mailing.round,
      slot: recipient.slot,
      provider: services.providers.mailhouse.name,
      fromAddress: mailing.from,
      toAddress: recipient.address,
      costCents: mailing.prices.perEnvelopeCents,
      orderId: mailing.orderId ?? null,
    };
    const claim = await claimLetter(services, values, mailingNow, now);
    if (!claim) throw conflict(`The next step of this version is ${state.step.label}.`);
    if (!claim.mine) {
      outcomes.push(standing(claim.row, now));
      continue;
    }
    outcomes.push(await sendClaimed(services, claim.row));
  }
  return outcomes;
}

type NewLetter = Omit<typeof mailings.$inferInsert, "idempotencyKey" | "state">;

/**
 * The respondent's letter, claimed by this request when it is to be sent now: a new row, a
 * refused one sent again (mailing only), or one left sending that no request holds. Null when
 * there is none and the round is no longer being mailed.
 */
async function claimLetter(services: AppServices, values: NewLetter, mailingNow: boolean, now: Date) {
  const { db } = services;
  if (mailingNow) {
    const [inserted] = await db
      .insert(mailings)
      .values({
        ...values,
        idempotencyKey: letterKey({ ...values, attempt: 1 }),
        state: "sending",
        sendingSince: now,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning();
    if (inserted) return { row: inserted, mine: true } satisfies Claim;
  }
  const [row] = await db
    .select()
    .from(mailings)
    .where(and(eq(mailings.entryId, values.entryId), eq(mailings.round, values.round), eq(mailings.slot, values.slot)));
  if (!row) return null;
  if (row.state === "sending") return (await takeOver(services, row, now)) ?? { row, mine: false };
  if (!mailingNow || !mayResend(row)) return { row, mine: false } satisfies Claim;
  const attempt = row.attempt + 1;
  const [again] = await db
    .update(mailings)
    .set({
      ...values,
      attempt,
      idempotencyKey: letterKey({ ...values, round: row.round, attempt }),
      state: "sending",
      reason: null,
      sendingSince: now,
    })
    .where(and(eq(mailings.id, row.id), eq(mailings.state, "failed"), eq(mailings.attempt, row.attempt)))
    .returning();
  return again ? ({ row: again, mine: true } satisfies Claim) : { row, mine: false };
}

/**
 * Takes over a letter left sending: no request holds it (its try ended without an answer), or
 * the one that did has held it past SENDING_CLAIM_MS (its server stopped). One request wins the
 * update; within RECOVERABLE_FOR_MS only, while the mail house still knows the key.
 */
export async function takeOver(services: AppServices, row: MailingRow, now: Date): Promise<Claim | null> {
  if (row.provider !== services.providers.mailhouse.name) return null;
  const [taken] = await services.db
    .update(mailings)
    .set({ sendingSince: now })
    .where(
      and(
        eq(mailings.id, row.id),
        eq(mailings.state, "sending"),
        or(isNull(mailings.sendingSince), lt(mailings.sendingSince, new Date(now.getTime() - SENDING_CLAIM_MS))),
        gt(mailings.createdAt, new Date(now.getTime() - RECOVERABLE_FOR_MS)),
      ),
    )
    .returning();
  return taken ? { row: taken, mine: true } : null;
}

/** What a letter this request did not send stands at. */
function standing(row: MailingRow, now: Date): LetterOutcome {
  const base = { slot: row.slot, mailing: row, message: row.reason };
  if (row.state !== "sending") return { ...base, outcome: "kept" };
  const recoverable = row.createdAt.getTime() > now.getTime() - RECOVERABLE_FOR_MS;
  return recoverable
    ? { ...base, outcome: "in_progress", message: "This letter is being sent: its tracking number follows shortly." }
    : {
        ...base,
        outcome: "unconfirmed",
        message: "The mail house did not confirm this letter. An admin will check it with the mail house.",
      };
}

const released = { sendingSince: null, updatedAt: new Date() };

/**
 * Asks the mail house for a letter this request holds, with the letter's key: the first time, or
 * again after a lost answer (the mail house then answers the letter it made). Writes what it
 * answered on the row and the round; a refusal marks the row failed, with the mail house's words;
 * no answer leaves it sending, released for the next request.
 */
export async function sendClaimed(services: AppServices, row: MailingRow): Promise<LetterOutcome> {
  const base = { slot: row.slot, message: null };
  let letter: MailedLetter;
  try {
    letter = await services.providers.mailhouse.sendLetter({
      pdf: await letterPdf(services, row),
      from: row.fromAddress,
      to: row.toAddress,
      description: `${roundName(row.round)} to ${row.toAddress.name}`.slice(0, 255),
      idempotencyKey: row.idempotencyKey,
      metadata: { mailing: row.id, round: String(row.round), slot: String(row.slot) },
    });
  } catch (error) {
    const refused = isProviderError(error, "mail_refused");
    const [after] = await services.db
      .update(mailings)
      .set(refused ? { ...released, state: "failed", reason: error.message } : released)
      .where(eq(mailings.id, row.id))
      .returning();
    if (refused) return { ...base, outcome: "refused", mailing: after!, message: error.message };
    if (isProviderError(error, "provider_unavailable"))
      return { ...base, outcome: "unavailable", mailing: after!, message: error.message };
    throw error;
  }
  const mailing = await letterMade(services, row, letter);
  return { ...base, outcome: "sent", mailing };
}

/**
 * The letter's PDF: the round's notice to this respondent, cut from the notice's notarized PDF
 * while that is the notice as it stands, else as the documents service makes it.
 */
async function letterPdf(services: AppServices, row: MailingRow): Promise<Uint8Array> {
  const [entry] = await services.db
    .select({ entryNumber: nolEntries.entryNumber })
    .from(nolEntries)
    .where(eq(nolEntries.id, row.entryId));
  const record = entry
    ? await findNotice(
        services.db,
        { id: row.userId },
        { cf_number: entry.entryNumber, cf_version: row.descriptiveVersion, round_cnt: row.round },
      )
    : null;
  if (!record) throw notFound("This round has not been written yet");
  return (await notarizedLetter(services, record, row)) ?? renderRespondentLetterPdf(services, record, row.slot);
}

/**
 * The respondent's letter as the notary notarized it: its pages of the notice's notarized PDF,
 * then the notary's own pages, so the letter mailed on its own carries the notary's mark on
 * every page (docs/decisions/059-notarized-letters.md). Null, and the letter is rendered as it
 * stands, when there is no such copy to cut it from: the notice is not notarized (or not at the
 * notary in use), the notary no longer has the PDF, the member signed the notice after it went
 * to the notary, or the PDF's pages are not those of the letters counted when it was sent.
 * While the notary cannot be reached the letter waits (the mail house is not asked).
 */
async function notarizedLetter(
  services: AppServices,
  { notarization }: NoticeRecord,
  row: MailingRow,
): Promise<Uint8Array | null> {
  const notary = services.providers.notary;
  if (!notarization?.nzId || notarization.nzStatus !== "completed" || notarization.provider !== notary.name)
    return null;
  const letters = letterPagesSchema.safeParse(notarization.letterPages);
  if (!letters.success) return null;
  const signature = await latestSignature(services.db, row.entryId, row.round);
  if (signature && !(notarization.nzCreated && signature.createdAt < notarization.nzCreated)) return null;
  const nzId = notarization.nzId;
  const pdf = await notary.notarizedDocument(nzId).catch((error: unknown) => {
    if (isProviderError(error, "notary_refused")) return null;
    throw error;
  });
  if (!pdf) return null;
  const notarized = await PDFDocument.load(pdf, { updateMetadata: false }).catch(() => null);
  const pages = notarized && notarizedLetterPages(letters.data, notarized.getPageCount(), row.slot);
  if (!notarized || !pages) {
    services.logger.warn(
      { mailing: row.id, nzId },
      "the notarized notice does not match its letters: mailed as rendered",
    );
    return null;
  }
  const letter = await PDFDocument.create();
  for (const page of await letter.copyPages(notarized, pages)) letter.addPage(page);
  const title = notarized.getTitle();
  if (title) letter.setTitle(title);
  return letter.save();
}

/** Keeps the mail house's letter on the row and its number on the round, then applies the events it already has. */
async function letterMade(services: AppServices, row: MailingRow, letter: MailedLetter): Promise<MailingRow> {
  await services.db.transaction(async (tx) => {
    await lockVersion(tx, row);
    await tx
      .update(mailings)
      .set({
        ...released,
        letterId: letter.id,
        trackingNumber: letter.trackingNumber,
        state: letter.events.length > 0 ? "created" : letter.state,
        sendDate: letter.sendDate,
        expectedDeliveryDate: letter.expectedDeliveryDate,
      })
      .where(and(eq(mailings.id, row.id), eq(mailings.state, "sending")));
    await recordRound(tx, row);
  });
  for (const event of letter.events) await applyMailEvent(services, event);
  await adoptEarlyEvents(services, { ...row, letterId: letter.id });
  const [after] = await services.db.select().from(mailings).where(eq(mailings.id, row.id));
  return after!;
}
