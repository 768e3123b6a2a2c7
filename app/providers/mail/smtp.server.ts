import { and, asc, eq, lt, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { mailOutbox } from "~/db/schema";
import { describeMailError, FIRST_MAIL_RETRY_MS, mailRetryDueAt, statusAfterFailedTry } from "~/domain/mail";
import type { MailProvider } from "./types";

export type SmtpMailDeps = {
  db: Database;
  transport: Transporter;
  /** The From header: the community's name and the sending address. */
  from: { name: string; address: string };
  logger: Logger;
};

/**
 * A transport for an `smtp://user:password@host:port` URL (STARTTLS when the server offers
 * it) or `smtps://…` (TLS from the first byte). Each message opens its own connection.
 */
export function smtpTransport(url: string): Transporter {
  const parsed = new URL(url);
  const secure = parsed.protocol === "smtps:";
  return nodemailer.createTransport({
    host: parsed.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    auth: parsed.username
      ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
      : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}

type OutboxRow = typeof mailOutbox.$inferSelect;

/** One try of one outbox row; the row records the outcome. */
async function deliver(deps: SmtpMailDeps, row: OutboxRow): Promise<boolean> {
  try {
    await deps.transport.sendMail({
      from: deps.from,
      to: row.to,
      subject: row.subject,
      text: row.text,
      html: row.html ?? undefined,
    });
    await deps.db
      .update(mailOutbox)
      .set({ status: "sent", sentAt: new Date(), lastError: null })
      .where(eq(mailOutbox.id, row.id));
    return true;
  } catch (error) {
    const status = statusAfterFailedTry(row.attempts);
    await deps.db
      .update(mailOutbox)
      .set({ status, lastError: describeMailError(error) })
      .where(eq(mailOutbox.id, row.id));
    deps.logger.warn(
      { err: error, mailId: row.id, template: row.template, attempts: row.attempts },
      status === "failed"
        ? "an e-mail could not be sent: gave up"
        : "an e-mail could not be sent: it will be tried again",
    );
    return false;
  }
}

/**
 * Mail through an SMTP server. Every message is written to the outbox first, so a mail
 * server that is down loses nothing: the row stays pending and `retryPendingMail` tries it
 * again later. A refused message does not fail the action that sent it.
 */
export function smtpMailer(deps: SmtpMailDeps): MailProvider {
  return {
    async send(message) {
      const [row] = await deps.db
        .insert(mailOutbox)
        .values({
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          template: message.template,
          status: "pending",
          attempts: 1,
        })
        .returning();
      await deliver(deps, row!);
    },
  };
}

/**
 * Tries again the pending e-mails that are due (see `mailRetryDueAt`). Each row is claimed
 * by raising its attempt count from the value read, so two servers never send one twice.
 */
export async function retryPendingMail(
  deps: SmtpMailDeps,
  now: Date = new Date(),
  limit = 20,
): Promise<{ sent: number; failed: number }> {
  const candidates = await deps.db
    .select()
    .from(mailOutbox)
    // The database keeps microseconds and a Date milliseconds: the bound allows for that.
    .where(
      and(
        eq(mailOutbox.status, "pending"),
        lt(mailOutbox.createdAt, new Date(now.getTime() - FIRST_MAIL_RETRY_MS + 1)),
      ),
    )
    .orderBy(asc(mailOutbox.createdAt))
    .limit(limit * 5);
  const result = { sent: 0, failed: 0 };
  for (const candidate of candidates) {
    if (result.sent + result.failed >= limit) break;
    if (mailRetryDueAt(candidate.createdAt, candidate.attempts) > now) continue;
    const [claimed] = await deps.db
      .update(mailOutbox)
      .set({ attempts: sql`${mailOutbox.attempts} + 1` })
      .where(
        and(
          eq(mailOutbox.id, candidate.id),
          eq(mailOutbox.status, "pending"),
          eq(mailOutbox.attempts, candidate.attempts),
        ),
      )
      .returning();
    if (!claimed) continue;
    if (await deliver(deps, claimed)) result.sent += 1;
    else result.failed += 1;
  }
  return result;
}
