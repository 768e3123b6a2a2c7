import type { Transporter } from "nodemailer";
import type { AppServices } from "~/context";
import { communityFor } from "~/domain/community";
import { outboxMailer } from "~/providers/mail/outbox.server";
import { retryPendingMail, smtpMailer, smtpTransport, type SmtpMailDeps } from "~/providers/mail/smtp.server";
import type { MailProvider } from "~/providers/mail/types";

const transports = new Map<string, Transporter>();

function smtpDeps(services: AppServices, url: string): SmtpMailDeps {
  let transport = transports.get(url);
  if (!transport) {
    transport = smtpTransport(url);
    transports.set(url, transport);
  }
  return {
    db: services.db,
    transport,
    from: { name: communityFor(services.config.community).name, address: services.config.mailFrom },
    logger: services.logger,
  };
}

const smtpMailers = new WeakMap<AppServices, ReturnType<typeof smtpMailer>>();

/** The configured mail provider: the outbox (the default) or an SMTP server (`MAIL=smtp`). */
export function mailerFor(services: AppServices): MailProvider {
  const { mail, smtpUrl } = services.config;
  if (mail !== "smtp" || !smtpUrl) return outboxMailer(services.db);
  let mailer = smtpMailers.get(services);
  if (!mailer) {
    mailer = smtpMailer(smtpDeps(services, smtpUrl));
    smtpMailers.set(services, mailer);
  }
  return mailer;
}

/** Waits for the e-mails being handed to the SMTP server (before shutdown, and in tests). */
export async function mailSettled(services: AppServices): Promise<void> {
  await smtpMailers.get(services)?.settled();
}

/** Tries again the e-mails the SMTP server did not take; nothing to do with the outbox provider. */
export async function retryMail(services: AppServices, now: Date = new Date()) {
  const { mail, smtpUrl } = services.config;
  if (mail !== "smtp" || !smtpUrl) return { sent: 0, failed: 0 };
  return retryPendingMail(smtpDeps(services, smtpUrl), now);
}

export const MAIL_RETRY_INTERVAL_MS = 60_000;

/** With SMTP, tries pending e-mails again every minute, one sweep at a time; returns the stop. */
export function startMailRetries(services: AppServices): () => void {
  if (services.config.mail !== "smtp") return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    retryMail(services)
      .then((result) => {
        if (result.sent + result.failed > 0) services.logger.info(result, "tried pending e-mails again");
      })
      .catch((error: unknown) => services.logger.error({ err: error }, "could not try pending e-mails again"))
      .finally(() => {
        running = false;
      });
  }, MAIL_RETRY_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
