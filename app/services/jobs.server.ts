import type PgBoss from "pg-boss";
import { z } from "zod";
import type { AppServices } from "~/context";
import { passwordResetJob } from "./accounts.server";
import { backupJob, dailyBackupJob } from "./backups/backups.server";
import { sendWaitingBackupsJob } from "./backups/stored.server";
import { complimentaryEndsJob } from "./billing/complimentary.server";
import { paymentFailedNoticeJob, paymentReceiptJob } from "./billing/notices.server";
import { sandboxEventsJob, sandboxRenewalsJob } from "./billing/sandbox.server";
import { recoveryCodesRekeyJob } from "./factors/recovery-codes.server";
import { mailRetryJob } from "./mail.server";
import { mailhouseSandboxEventsJob, mailingsPollJob } from "./mailings/jobs.server";
import { mailingOrderPaidJob, mailingOrderSendJob, mailingRefundJob } from "./mailings/order-jobs.server";
import { importInvitationsJob } from "./member-import/invite.server";
import { memberImportJob } from "./member-import/run.server";
import { archiveSweepJob, memberArchiveJob } from "./member-data/archive.server";
import { erasureSweepJob } from "./member-data/erasure.server";
import { membersMailJob } from "./member-listing.server";
import { notaryPollJob, notarySandboxEventsJob } from "./notary/events.server";
import { nolRemindersJob } from "./nol/reminders.server";
import {
  installQueues,
  JOB_SCHEMA,
  newBoss,
  sendThroughRunner,
  type EnqueueOptions,
  type JobDefinition,
} from "./queue.server";

/**
 * The job runner and the registry of every job, above the services whose jobs it lists:
 * services define and queue their jobs through the queue (queue.server.ts) and never import
 * this file.
 */

export type JobRegistry = Record<string, JobDefinition<unknown>>;

/**
 * Every job the app runs, by its name. A new job is one entry here and a definition beside its
 * service; the runner refuses to start when an entry's name is not its job's own.
 */
export const jobs = {
  "mail-retry-pending": mailRetryJob,
  "password-reset-mail": passwordResetJob,
  "payment-receipt": paymentReceiptJob,
  "payment-failed-notice": paymentFailedNoticeJob,
  "payments-sandbox-events": sandboxEventsJob,
  "payments-sandbox-renewals": sandboxRenewalsJob,
  "notary-sandbox-events": notarySandboxEventsJob,
  "notary-poll": notaryPollJob,
  "mailhouse-sandbox-events": mailhouseSandboxEventsJob,
  "mailings-poll": mailingsPollJob,
  "mailing-order-paid": mailingOrderPaidJob,
  "mailing-order-send": mailingOrderSendJob,
  "mailing-refund": mailingRefundJob,
  "members-mail": membersMailJob,
  "nol-reminders": nolRemindersJob,
  "complimentary-ends": complimentaryEndsJob,
  "members-import": memberImportJob,
  "members-import-invitations": importInvitationsJob,
  backup: backupJob,
  "backups-daily": dailyBackupJob,
  "backups-send": sendWaitingBackupsJob,
  "member-archive": memberArchiveJob,
  "member-archives-sweep": archiveSweepJob,
  "account-erasure-sweep": erasureSweepJob,
  "recovery-codes-rekey": recoveryCodesRekeyJob,
} satisfies JobRegistry;

type DataOf<J> = J extends { data: infer S extends z.ZodTypeAny } ? z.input<S> : never;

export type JobRunner<R extends JobRegistry> = {
  /** Takes no new job, lets the running ones finish (up to the shutdown timeout). */
  stop(): Promise<void>;
  enqueue<N extends keyof R & string>(name: N, data: DataOf<R[N]>, options?: EnqueueOptions): Promise<string | null>;
};

export type RunnerOptions<R extends JobRegistry> = {
  /** The jobs this runner takes; the app's registry unless a test brings its own. */
  jobs?: R;
  /** How often each queue is polled; pg-boss allows 0.5 at least. */
  pollingIntervalSeconds?: number;
};

const describeError = (error: unknown) =>
  error instanceof Error ? { name: error.name, message: error.message } : { message: String(error) };

const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

/** Starts this server's job runner over the app's database; resolves once it polls. */
export async function startJobs<R extends JobRegistry = typeof jobs>(
  services: AppServices,
  options: RunnerOptions<R> = {},
): Promise<JobRunner<R>> {
  const registry: JobRegistry = options.jobs ?? jobs;
  const { database, logger, config } = services;
  // What pg-boss has asked of the database and what handlers are running: the runner stops
  // only once both are done, so nothing reaches a database that is closing.
  let pending = 0;
  let running = 0;
  let closed = false;
  // Aborted when the runner stops, so that long jobs end at their next whole step.
  const stopping = new AbortController();
  const boss = newBoss({
    async executeSql(text, values) {
      // Only a job's late completion can come after stop(); the job then expires and is retried.
      if (closed) return { rows: [] };
      pending += 1;
      try {
        return await database.executeSql(text, values);
      } finally {
        pending -= 1;
      }
    },
  });
  boss.on("error", (error) => logger.error({ err: error }, "a step of the job runner failed"));

  /** Runs one polled batch; a job that throws is failed on its own (retried or given up). */
  const runBatch = async (name: string, job: JobDefinition<unknown>, batch: PgBoss.JobWithMetadata<unknown>[]) => {
    running += 1;
    try {
      await Promise.all(
        batch.map(async (entry) => {
          try {
            await job.run(services, job.data.parse(entry.data ?? {}), {
              id: entry.id,
              retryCount: entry.retryCount,
              signal: stopping.signal,
            });
          } catch (error) {
            services.metrics.jobFailed(name);
            const willRetry = entry.retryCount < entry.retryLimit;
            logger[willRetry ? "warn" : "error"](
              { err: error, job: name, jobId: entry.id, tries: entry.retryCount + 1 },
              willRetry ? "a job failed: it will be tried again" : "a job failed: gave up",
            );
            // pg-boss completes the batch afterwards, which touches only jobs still active.
            await boss.fail(name, entry.id, describeError(error));
          }
        }),
      );
    } finally {
      running -= 1;
    }
  };

  for (const [name, job] of Object.entries(registry)) {
    if (job.name !== name) throw new Error(`The job ${job.name} is listed as ${name}`);
  }
  services.metrics.startAtZero({ jobs: Object.keys(registry) });
  // Before this runner's scheduler starts, so it finds its queue made.
  const installer = await installQueues(database, Object.values(registry));
  await installer.stop({ graceful: false, close: false });
  try {
    await boss.start();
    const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
    for (const [name, job] of Object.entries(registry)) {
      if (job.enabled && !job.enabled(services)) {
        await boss.unschedule(name);
        continue;
      }
      const schedule = typeof job.schedule === "function" ? job.schedule(services) : job.schedule;
      if (schedule) await boss.schedule(name, schedule);
      else await boss.unschedule(name);
      const workOptions = { includeMetadata: true as const, pollingIntervalSeconds, batchSize: job.batchSize ?? 1 };
      await boss.work<unknown>(name, workOptions, (batch) => runBatch(name, job, batch));
    }
  } catch (error) {
    await boss.stop({ graceful: false, close: false }).catch(() => {});
    throw error;
  }
  const forgetSender = sendThroughRunner(database, boss, Object.values(registry));
  logger.info({ jobs: Object.keys(registry) }, "job runner started");

  return {
    async stop() {
      stopping.abort();
      const deadline = Date.now() + config.shutdownTimeoutMs;
      await boss.stop({ graceful: true, close: false, timeout: config.shutdownTimeoutMs });
      while ((pending > 0 || running > 0) && Date.now() < deadline) await tick();
      closed = true;
      forgetSender();
    },
    enqueue: (name, data, sendOptions) => boss.send(name, data as object, sendOptions ?? {}),
  };
}

export const JOB_STATES = ["created", "retry", "active", "completed", "cancelled", "failed"] as const;

/** /admin/jobs?state={state}: the jobs in one state, or all. */
export const jobsQuerySchema = z.object({ state: z.enum(JOB_STATES).optional() });
export type JobState = (typeof JOB_STATES)[number];

const jobRow = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(JOB_STATES),
  retryCount: z.coerce.number(),
  retryLimit: z.coerce.number(),
  createdOn: z.coerce.date(),
  startedOn: z.coerce.date().nullable(),
  completedOn: z.coerce.date().nullable(),
  output: z.unknown(),
});

export type JobSummary = Omit<z.infer<typeof jobRow>, "output"> & {
  /** The last failure's message, for a job that failed or waits to be retried. */
  error: string | null;
  /** How many times it has been tried, and may be in all. */
  tries: number;
  maxTries: number;
};

const errorOf = (output: unknown): string | null => {
  const parsed = z.object({ message: z.string() }).safeParse(output);
  return parsed.success ? parsed.data.message : null;
};

/**
 * The latest jobs, newest first, optionally in one state, from the live table and the
 * archive (pg-boss moves finished jobs there after 12 hours and deletes them after 7 days).
 */
export async function listJobs(
  services: AppServices,
  { state, limit = 50 }: { state?: JobState; limit?: number } = {},
): Promise<JobSummary[]> {
  const { database } = services;
  const installed = await database.executeSql("select to_regclass($1) as job", [`${JOB_SCHEMA}.job`]);
  if (!installed.rows[0]?.job) return [];
  const columns = "id, name, state, retry_count, retry_limit, created_on, started_on, completed_on, output";
  const { rows } = await database.executeSql(
    `select id::text, name, state::text, retry_count as "retryCount", retry_limit as "retryLimit",
       created_on as "createdOn", started_on as "startedOn", completed_on as "completedOn", output
     from (select ${columns} from ${JOB_SCHEMA}.job union all select ${columns} from ${JOB_SCHEMA}.archive) jobs
     where not starts_with(name, '__pgboss__') and ($1::text is null or state::text = $1::text)
     order by created_on desc, id
     limit $2`,
    [state ?? null, limit],
  );
  return rows.map((row) => {
    const { output, ...job } = jobRow.parse(row);
    return {
      ...job,
      error: job.state === "failed" || job.state === "retry" ? errorOf(output) : null,
      tries: job.retryCount + (job.startedOn ? 1 : 0),
      maxTries: job.retryLimit + 1,
    };
  });
}

/** The admins' jobs page: the jobs that gave up, then the latest, optionally in one state. */
export async function jobsOverview(services: AppServices, state: JobState | null) {
  const [failed, recent] = await Promise.all([
    listJobs(services, { state: "failed", limit: 50 }),
    listJobs(services, { state: state ?? undefined, limit: 100 }),
  ]);
  return { state, failed, recent };
}
