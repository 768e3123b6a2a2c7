/** How often and how long an e-mail that the mail server refused is tried again. */
export const MAX_MAIL_ATTEMPTS = 6;

const MINUTE_MS = 60_000;

/** No e-mail is tried again sooner than this after it was written. */
export const FIRST_MAIL_RETRY_MS = 2 * MINUTE_MS;

/**
 * When an e-mail that has been tried `attempts` times (and is still pending) is due again:
 * 2, 4, 8, 16 and 32 minutes after it was written, so six tries span about an hour.
 */
export function mailRetryDueAt(createdAt: Date, attempts: number): Date {
  return new Date(createdAt.getTime() + 2 ** Math.max(0, attempts - 1) * FIRST_MAIL_RETRY_MS);
}

/**
 * When a message that just failed its `attempts`-th try is tried next: on its schedule, but
 * never sooner than a minute from now, so a sweep that runs late does not spend every try
 * at once.
 */
export function nextMailAttempt(createdAt: Date, attempts: number, now: Date): Date {
  const due = mailRetryDueAt(createdAt, attempts);
  const soonest = new Date(now.getTime() + MINUTE_MS);
  return due > soonest ? due : soonest;
}

/** The status an e-mail takes after a failed try: it waits for the next one, or gives up. */
export function statusAfterFailedTry(attempts: number): "pending" | "failed" {
  return attempts >= MAX_MAIL_ATTEMPTS ? "failed" : "pending";
}

/** SMTP server replies and socket errors, cut to what is worth keeping in the outbox row. */
export function describeMailError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, " ").trim().slice(0, 500) || "unknown error";
}
