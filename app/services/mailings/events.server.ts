import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { AppServices } from "~/context";
import { causes, mailingEvents, mailings, users } from "~/db/schema";
import { causeSlug } from "~/domain/causes";
import { invalid } from "~/domain/errors";
import { applyLetterEvent, LETTER_STATES } from "~/domain/mailing/tracking";
import { stepHref } from "~/domain/nol/addresses";
import { roundName } from "~/domain/nol/timeline";
import { formatDate } from "~/lib/format";
import { refuseNulInJsonText } from "~/lib/json-body.server";
import { isProviderError } from "~/providers/errors";
import type { MailEvent } from "~/providers/mailhouse/types";
import { entriesOf, versionState } from "../nol/entries.server";
import { countedDelivery, deliverInBatches } from "../provider-events.server";
import { keepReturnReceipt } from "./receipts.server";
import { lockVersion, recordRound, trackOfRow, type MailingRow, type Tx } from "./records.server";

/**
 * What the mail house tells us of its letters: each event (a webhook, the sandbox's kept
 * events, a poll's reading) stored by its id and applied once, moving the letter only forward by
 * the tracking rules (app/domain/mailing/tracking.ts), whatever order the events come in.
 */

export type MailEventOutcome = "applied" | "duplicate";

const later = (a: Date | null, b: Date) => (a && a > b ? a : b);

/**
 * Stores the event and applies it to its letter in one transaction: a second delivery of it
 * finds it stored and changes nothing. A mailed, delivered or cancelled letter writes the round
 * again (its mailing date, its proof of delivery, its tracking numbers); a letter returned to
 * sender has its member e-mailed, once.
 */
export async function applyMailEvent(
  services: AppServices,
  event: MailEvent,
): Promise<{ outcome: MailEventOutcome; mailingId: string | null }> {
  const { db } = services;
  const [known] = event.letterId
    ? await db
        .select()
        .from(mailings)
        .where(and(eq(mailings.provider, event.provider), eq(mailings.letterId, event.letterId)))
    : [];
  const outcome = await db.transaction(async (tx): Promise<MailEventOutcome> => {
    // The version first, then the letter: the order every writer of both takes them in.
    if (known) await lockVersion(tx, known);
    const [stored] = await tx
      .insert(mailingEvents)
      .values({
        provider: event.provider,
        eventId: event.id,
        mailingId: known?.id ?? null,
        letterId: event.letterId,
        type: event.providerType,
        occurredAt: event.occurredAt,
        body: { ...event, occurredAt: event.occurredAt.toISOString() },
      })
      .onConflictDoNothing()
      .returning({ id: mailingEvents.id });
    if (!stored) return "duplicate";
    if (known) await moveLetter(tx, known.id, event);
    return "applied";
  });
  // Also after a repeat: a delivery retried because the e-mail failed sends it then.
  if (known) {
    await noticeReturned(services, known.id);
    if (event.state === "delivered") await keepReturnReceipt(services, known.id);
  }
  return { outcome, mailingId: known?.id ?? null };
}

/**
 * The letter after one event, under its row's lock (the caller holds its version's): moved
 * forward by the tracking rules, or only marked heard of, and its round written again when it
 * moved.
 */
async function moveLetter(tx: Tx, mailingId: string, event: MailEvent): Promise<void> {
  const [row] = await tx.select().from(mailings).where(eq(mailings.id, mailingId)).for("update");
  if (!row) return;
  const heard = { lastEventAt: later(row.lastEventAt, event.occurredAt) };
  const moved =
    event.state && row.state !== "sending"
      ? applyLetterEvent(trackOfRow(row), { state: event.state, occurredAt: event.occurredAt, reason: event.reason })
      : null;
  if (!moved?.changed) {
    await tx.update(mailings).set(heard).where(eq(mailings.id, row.id));
    return;
  }
  const { track } = moved;
  await tx
    .update(mailings)
    .set({
      ...heard,
      state: track.state,
      mailedAt: track.mailedAt,
      deliveredAt: track.deliveredAt,
      returnedAt: track.returnedAt,
      reason: track.reason,
    })
    .where(eq(mailings.id, row.id));
  await recordRound(tx, row);
}

/** An event as `applyMailEvent` stored it. */
const storedEventSchema = z.object({
  id: z.string(),
  provider: z.enum(["sandbox", "lob"]),
  providerType: z.string(),
  letterId: z.string().nullable(),
  state: z.enum(LETTER_STATES).nullable(),
  reason: z.string().nullable(),
  occurredAt: z.coerce.date(),
});

/**
 * Applies the events that came for a letter before we knew its id (a webhook about a letter
 * whose send's answer was lost, arriving before the send was taken over): they were stored
 * with no letter of ours, and are the letter's once its answer is written.
 */
export async function adoptEarlyEvents(services: AppServices, row: MailingRow): Promise<number> {
  if (!row.letterId) return 0;
  const adopted = await services.db.transaction(async (tx) => {
    await lockVersion(tx, row);
    const early = await tx
      .update(mailingEvents)
      .set({ mailingId: row.id })
      .where(
        and(
          eq(mailingEvents.provider, row.provider),
          eq(mailingEvents.letterId, row.letterId!),
          isNull(mailingEvents.mailingId),
        ),
      )
      .returning({ body: mailingEvents.body });
    const events = early
      .map(({ body }) => storedEventSchema.parse(body))
      .sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime());
    for (const event of events) await moveLetter(tx, row.id, event);
    return events.length;
  });
  if (adopted > 0) await noticeReturned(services, row.id);
  return adopted;
}

/**
 * E-mails the member that a letter came back, once: the row is marked first, and only the
 * request that marks it sends; a mail that cannot be written takes the mark back for a retry.
 */
export async function noticeReturned(services: AppServices, mailingId: string): Promise<boolean> {
  const { db } = services;
  const [letter] = await db
    .update(mailings)
    .set({ returnNoticeAt: new Date() })
    .where(and(eq(mailings.id, mailingId), eq(mailings.state, "returned_to_sender"), isNull(mailings.returnNoticeAt)))
    .returning();
  if (!letter) return false;
  try {
    const [member] = await db
      .select({ email: users.email, username: users.username })
      .from(users)
      .where(eq(users.id, letter.userId));
    const [cause] = await db.select({ name: causes.name }).from(causes).where(eq(causes.code, letter.causeCode));
    const state = versionState(await entriesOf(db, letter.userId, letter.causeCode), letter.descriptiveVersion);
    const href = stepHref(
      "NoLCreator2",
      causeSlug(cause?.name ?? letter.causeCode),
      state.step.kind,
      letter.descriptiveVersion,
      null,
    );
    const name = roundName(letter.round);
    const returned = letter.returnedAt ? ` on ${formatDate(letter.returnedAt)}` : "";
    await services.providers.mail.send({
      to: member!.email,
      template: "mailing-returned",
      subject: `Your ${name} to ${letter.toAddress.name} came back`,
      text: [
        `The mail house reports that your ${name} to ${letter.toAddress.name} (${letter.descriptiveVersion}) was returned to the sender${returned}.`,
        `The reason given: ${letter.reason ?? "none was given"}.`,
        `Tracking number: ${letter.trackingNumber ?? "none"}`,
        `Check the respondent's address, then mail the notice again: ${services.config.baseUrl}${href}`,
      ].join("\n\n"),
    });
  } catch (error) {
    await db.update(mailings).set({ returnNoticeAt: null }).where(eq(mailings.id, mailingId));
    throw error;
  }
  return true;
}

/**
 * POST /api/webhooks/mailhouse: one delivery of the mail house, its signature checked on the raw
 * body, then applied. A bad or stale signature, or a body that is no event, is refused (400)
 * before anything is stored; the sandbox sends none, so any delivery is refused with it.
 */
export async function receiveMailWebhook(services: AppServices, rawBody: string, headers: Headers) {
  const { mailhouse } = services.providers;
  return countedDelivery(services, mailhouse.name, async () => {
    refuseNulInJsonText(rawBody);
    let event: MailEvent;
    try {
      event = mailhouse.readWebhook(rawBody, headers);
    } catch (error) {
      if (isProviderError(error, "invalid_signature")) throw invalid(error.message);
      throw error;
    }
    const { outcome } = await applyMailEvent(services, event);
    return { result: { received: true, duplicate: outcome === "duplicate" }, outcome };
  });
}

/**
 * The sandbox mail house's clock step: every letter moved as far as its schedule says by `now`,
 * then its events handed to the app as the notary sandbox's are.
 */
export async function runSandboxMailHouse(
  services: AppServices,
  now = new Date(),
): Promise<{ moved: number; delivered: number }> {
  const sandbox = services.providers.mailhouseSandbox;
  if (!sandbox) return { moved: 0, delivered: 0 };
  const moved = await sandbox.advance(now);
  const delivered = await deliverInBatches(sandbox, (event) => applyMailEvent(services, event));
  return { moved, delivered };
}
