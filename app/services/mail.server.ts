import type { AppServices } from "~/context";

export const MAIL_RETRY_INTERVAL_MS = 60_000;

/** With SMTP, tries pending e-mails again every minute, one sweep at a time; returns the stop. */
export function startMailRetries(services: AppServices): () => void {
  if (services.providers.mail.name !== "smtp") return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    services.providers.mail
      .retryPending()
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
