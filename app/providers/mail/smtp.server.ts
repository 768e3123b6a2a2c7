import { and, asc, eq, lte, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { mailOutbox } from "~/db/schema";
import { describeMailError, mailRetryDueAt, nextMailAttempt, statusAfterFailedTry } from "~/domain/mail";
import { outboxFields } from "./outbox.server";
import type { MailCounter, MailProvider } from "./types";

export type SmtpMailDeps = {
  db: Database;
  transport: Transporter;
  /** The From header: the community's name and the sending address. */
  from: { name: string; address: string };
  logger: Logger;
  /** Told of each try's outcome. */
  count?: MailCounter;
};

/**
 * A transport for an `smtp://user:password@host:port` URL (STARTTLS when the server offers
 * it) or `smtps://…` (TLS from the first byte). Each message opens its own connection.
 */
export function smtpTransport(url: string): Transporter {
  const parsed = new URL(url);
  const secure = parsed.protocol === "smtps:";
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  // Off this machine, smtp:// must upgrade with STARTTLS: a server (or anyone in between)
  // that does not offer it never gets the login or the mail in clear text.
  const loopback = host === "localhost" || host === "::1" || /^127\./.test(host);
  return nodemailer.createTransport({
    host,
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    requireTLS: !secure && !loopback,
    auth: parsed.username
      ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
      : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
}

type OutboxRow = typeof mailOutbox.$inferSelect;

/** One try of one outbox row; the row records the outcome and when to try next. */
async function deliver(deps: SmtpMailDeps, row: OutboxRow): Promise<boolean> {
  try {
    await deps.transport.sendMail({
      from: deps.from,
      to: row.to,
      subject: row.subject,
      text: row.text,
      html: row.html ?? undefined,
      headers: row.headers ?? undefined,
    });
    await deps.db
      .update(mailOutbox)
      .set({ status: "sent", sentAt: new Date(), lastError: null, nextAttemptAt: null })
      .where(eq(mailOutbox.id, row.id));
    deps.count?.("sent");
    return true;
  } catch (error) {
    deps.count?.("failed");
    const status = statusAfterFailedTry(row.attempts);
    await deps.db
      .update(mailOutbox)
      .set({
        status,
        lastError: describeMailError(error),
        nextAttemptAt: status === "pending" ? nextMailAttempt(row.createdAt, row.attempts, new Date()) : null,
      })
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
 * Mail through an SMTP server. Every message is written to the outbox first and handed to
 * the server in the background, so no request waits on the mail server (and how long a
 * request takes tells nothing about whether it sent mail). A server that is down loses
 * nothing: the row stays pending and `retryPendingMail` tries it again later.
 */
export function smtpMailer(deps: SmtpMailDeps): MailProvider & { settled(): Promise<void> } {
  const inFlight = new Set<Promise<unknown>>();
  return {
    async send(message) {
      const now = new Date();
      const [row] = await deps.db
        .insert(mailOutbox)
        .values({
          ...outboxFields(message),
          status: "pending",
          attempts: 1,
          createdAt: now,
          // If this try is cut off (a restart), the sweep picks the message up then.
          nextAttemptAt: mailRetryDueAt(now, 1),
        })
        .returning();
      const delivery = deliver(deps, row!).catch((error: unknown) =>
        deps.logger.error({ err: error, mailId: row!.id }, "could not record an e-mail's delivery"),
      );
      inFlight.add(delivery);
      void delivery.finally(() => inFlight.delete(delivery));
    },
    /** Resolves once the deliveries started so far have finished (for shutdown and tests). */
    async settled() {
      await Promise.all([...inFlight]);
    },
  };
}

/** Longer than one SMTP try can take (connect, greeting and socket timeouts). */
const CLAIM_LEASE_MS = 5 * 60_000;

/**
 * Tries again the pending e-mails that are due, oldest due first, until none is due or
 * `limit` were tried. Each row is claimed by raising its attempt count from the value read,
 * so two servers never send one twice.
 */
export async function retryPendingMail(
  deps: SmtpMailDeps,
  now: Date = new Date(),
  limit = 200,
): Promise<{ sent: number; failed: number }> {
  const result = { sent: 0, failed: 0 };
  while (result.sent + result.failed < limit) {
    const due = await deps.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, now)))
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(20);
    if (due.length === 0) break;
    let claimedAny = false;
    for (const candidate of due) {
      const [claimed] = await deps.db
        .update(mailOutbox)
        // The claim also moves the row out of every other sweep's reach while it is sent.
        .set({ attempts: sql`${mailOutbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS) })
        .where(
          and(
            eq(mailOutbox.id, candidate.id),
            eq(mailOutbox.status, "pending"),
            eq(mailOutbox.attempts, candidate.attempts),
          ),
        )
        .returning();
      if (!claimed) continue;
      claimedAny = true;
      if (await deliver(deps, claimed)) result.sent += 1;
      else result.failed += 1;
    }
    // Every due row was taken by another server: leave the rest to it.
    if (!claimedAny) break;
  }
  return result;
}
