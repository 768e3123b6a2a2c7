import { sweepJob } from "./queue.server";

/**
 * With SMTP, tries again every minute the e-mails the mail server has not taken yet. One sweep
 * waits and one runs at a time across all servers ("stately"); each row is still claimed on its
 * own, so a sweep that overlaps another never sends a message twice. A failed sweep is not
 * retried: the next minute's sweep is its retry, and the failure stays visible on /admin/jobs.
 */
export const mailRetryJob = sweepJob({
  name: "mail-retry-pending",
  schedule: "* * * * *",
  enabled: (services) => services.providers.mail.name === "smtp",
  retry: { limit: 0, delaySeconds: 0 },
  async run(services) {
    const result = await services.providers.mail.retryPending();
    if (result.sent + result.failed > 0) services.logger.info(result, "tried pending e-mails again");
  },
});
