import { and, desc, eq, gt, isNull, lt, or } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { mailings } from "~/db/schema";
import { postalAddressSchema } from "~/domain/mailing/address";
import { mailingPricesSchema } from "~/domain/mailing/quote";
import {
  letterKey,
  mayMailAgain,
  mayResend,
  RECOVERABLE_FOR_MS,
  SENDING_CLAIM_MS,
} from "~/domain/mailing/round-letters";
import { conflict, invalid, notFound } from "~/domain/errors";
import { versionSchema } from "~/domain/nol/entries";
import { NOTICE_ROUNDS } from "~/domain/nol/rounds";
import { roundName } from "~/domain/nol/timeline";
import { isProviderError } from "~/providers/errors";
import type { MailedLetter } from "~/providers/mailhouse/types";
import { requireSigned } from "../documents/signatures.server";
import { waitingRespondents } from "~/domain/nol/service";
import { entriesOf, mailingRecipients, versionState, type EntryRow } from "../nol/entries.server";
import { roundServiceOf } from "../nol/service.server";
import type { UserRow } from "../viewer.server";
import { adoptEarlyEvents, applyMailEvent } from "./events.server";
import { letterPdf } from "./letter-pdf.server";
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
  const { mailingNow, named, waiting } = await whoIsMailed(services, state, entry, mailing.round);
  const outcomes: LetterOutcome[] = [];
  for (const recipient of parsed.data) {
    const allowed = named.has(recipient.slot) || waiting.has(recipient.slot);
    if (mailingNow && !allowed) throw invalid(`Respondent ${recipient.slot} is not mailed this round`);
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
    const claim = await claimLetter(services, values, { mailingNow, again: waiting.has(recipient.slot) }, now);
    if (!claim) throw conflict(`The next step of this version is ${state.step.label}.`);
    if (!claim.mine) {
      outcomes.push(standing(claim.row, now));
      continue;
    }
    outcomes.push(await sendClaimed(services, claim.row));
  }
  return outcomes;
}

const MAILING_STEPS = new Set(["mailing", "true-bill-mailing"]);
const PROOF_STEPS = new Set(["proof", "true-bill-proof"]);

/**
 * Who the round's letters may go to now: while the version is at the round's mailing step,
 * each respondent the round names; at its mailing or proof step, each respondent the reading
 * of its service leaves waiting (their envelope cancelled, returned or refused, or none sent).
 */
async function whoIsMailed(
  services: AppServices,
  state: ReturnType<typeof versionState>,
  entry: EntryRow,
  round: number,
) {
  const atRound = state.step.round === round;
  const atService = atRound && (MAILING_STEPS.has(state.step.kind) || PROOF_STEPS.has(state.step.kind));
  const named = new Set(
    atRound && MAILING_STEPS.has(state.step.kind)
      ? (await mailingRecipients(services.db, state)).map((r) => r.slot)
      : [],
  );
  const service = atService ? await roundServiceOf(services.db, { creator: state.creator, entry, round }) : null;
  const waiting = new Set(service ? waitingRespondents(service).map((r) => r.slot) : []);
  return { mailingNow: named.size > 0 || waiting.size > 0, named, waiting };
}

type NewLetter = Omit<typeof mailings.$inferInsert, "idempotencyKey" | "state">;

/**
 * The respondent's letter, claimed by this request when it is to be sent now: a new row, a
 * refused one sent again, a new envelope after one that came to nothing (a respondent still
 * waiting, another order), or one left sending that no request holds. Null when there is none
 * and the round is no longer being mailed.
 */
async function claimLetter(
  services: AppServices,
  values: NewLetter,
  now: { mailingNow: boolean; again: boolean },
  at: Date,
): Promise<Claim | null> {
  const { db } = services;
  const insert = async (envelope: number) => {
    const [inserted] = await db
      .insert(mailings)
      .values({
        ...values,
        envelope,
        idempotencyKey: letterKey({ ...values, envelope, attempt: 1 }),
        state: "sending",
        sendingSince: at,
        createdAt: at,
      })
      .onConflictDoNothing()
      .returning();
    return inserted ? ({ row: inserted, mine: true } satisfies Claim) : null;
  };
  const latest = async () =>
    (
      await db
        .select()
        .from(mailings)
        .where(
          and(eq(mailings.entryId, values.entryId), eq(mailings.round, values.round), eq(mailings.slot, values.slot)),
        )
        .orderBy(desc(mailings.envelope))
        .limit(1)
    )[0];
  if (now.mailingNow) {
    const first = await insert(1);
    if (first) return first;
  }
  const row = await latest();
  if (!row) return null;
  if (row.state === "sending") return (await takeOver(services, row, at)) ?? { row, mine: false };
  if (!now.mailingNow) return { row, mine: false } satisfies Claim;
  if (now.again && mayMailAgain(row, values.orderId)) {
    const next = await insert(row.envelope + 1);
    if (next) return next;
    // Another request made the envelope at the same moment: it stands for the respondent.
    const made = await latest();
    return made ? { row: made, mine: false } : null;
  }
  if (!mayResend(row)) return { row, mine: false } satisfies Claim;
  const attempt = row.attempt + 1;
  const [again] = await db
    .update(mailings)
    .set({
      ...values,
      attempt,
      idempotencyKey: letterKey({ ...values, round: row.round, envelope: row.envelope, attempt }),
      state: "sending",
      reason: null,
      sendingSince: at,
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
