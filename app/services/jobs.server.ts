import PgBoss from "pg-boss";
import { z } from "zod";
import type { AppServices } from "~/context";
import type { DatabaseHandle } from "~/db/client.server";
import { SINGLE_LOCK } from "~/db/locks";
import { passwordResetJob } from "./accounts.server";
import { paymentFailedNoticeJob, paymentReceiptJob } from "./billing/notices.server";
import { sandboxEventsJob, sandboxRenewalsJob } from "./billing/sandbox.server";
import { mailRetryJob } from "./mail.server";
import { membersMailJob } from "./member-listing.server";
import { notaryPollJob, notarySandboxEventsJob } from "./notary/events.server";

/**
 * Background work runs on pg-boss, in the app's own database: every server runs the runner,
 * and a job runs once however many servers there are (docs/decisions/009-jobs-on-pg-boss.md).
 */

/** One kind of background work: the data it takes, what it does, how it repeats and retries. */
export type JobDefinition<Data> = {
  /** Checked when the job runs: a queued job can outlive the deploy that queued it. */
  data: z.ZodType<Data, z.ZodTypeDef, unknown>;
  run(services: AppServices, data: Data, job: { id: string; retryCount: number }): Promise<void>;
  /** A cron line (UTC) for work that repeats; one job per tick across all servers. */
  schedule?: string;
  /** False where this server's configuration has no use for the job: it is then neither scheduled nor run. */
  enabled?(services: AppServices): boolean;
  /**
   * Tries after the first failure (default 3), the first one `delaySeconds` later (default 30),
   * each next one about twice as late, with jitter, unless `backoff` is false. Then the job is
   * marked failed and stays on /admin/jobs.
   */
  retry?: { limit: number; delaySeconds: number; backoff?: boolean };
  /** A try still running after this long counts as failed (default 15 minutes). */
  timeoutSeconds?: number;
  /** "stately": at most one job waiting and one running at a time, for sweeps that repeat. */
  policy?: "standard" | "stately";
  /** Jobs one poll takes at once (default 1); each runs, succeeds and fails on its own. */
  batchSize?: number;
};

export type JobRegistry = Record<string, JobDefinition<unknown>>;

/** Every job the app runs, by name. A new job is one entry here and a definition beside its service. */
export const jobs = {
  "mail-retry-pending": mailRetryJob,
  "password-reset-mail": passwordResetJob,
  "payment-receipt": paymentReceiptJob,
  "payment-failed-notice": paymentFailedNoticeJob,
  "payments-sandbox-events": sandboxEventsJob,
  "payments-sandbox-renewals": sandboxRenewalsJob,
  "notary-sandbox-events": notarySandboxEventsJob,
  "notary-poll": notaryPollJob,
  "members-mail": membersMailJob,
} satisfies JobRegistry;

export type JobName = keyof typeof jobs;
type DataOf<J> = J extends { data: infer S extends z.ZodTypeAny } ? z.input<S> : never;
export type JobData<N extends JobName> = DataOf<(typeof jobs)[N]>;

export type EnqueueOptions = Pick<PgBoss.SendOptions, "startAfter" | "singletonKey" | "priority">;

export const JOB_SCHEMA = "pgboss";

const DEFAULT_RETRY = { limit: 3, delaySeconds: 30, backoff: true };
const DEFAULT_TIMEOUT_SECONDS = 15 * 60;

function newBoss(db: PgBoss.Db, options: PgBoss.ConstructorOptions = {}): PgBoss {
  return new PgBoss({ db, schema: JOB_SCHEMA, ...options });
}

// Any 64-bit number that is ours alone; it serialises queue creation across app servers.
const QUEUE_CREATION_LOCK_ID = SINGLE_LOCK.jobQueues;
const QUEUE_NAME = /^[\w-]{1,100}$/;
const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

// pg-boss's own queue for scheduled jobs; its scheduler creates it with default settings.
const SCHEDULER_QUEUE = "__pgboss__send-it";

const createQueueScript = (name: string, options: object) => `BEGIN;
  SELECT pg_advisory_xact_lock(${QUEUE_CREATION_LOCK_ID});
  SELECT ${JOB_SCHEMA}.create_queue(${quote(name)}, ${quote(JSON.stringify(options))}::json);
  COMMIT;`;

/**
 * Installs pg-boss's schema and creates each queue once, giving it today's settings (a deploy
 * may change them). pg-boss's create_queue attaches a partition and a foreign key, and two
 * servers creating queues at the same time deadlock on PostgreSQL, so creation runs one at a
 * time under an advisory lock; that includes the scheduler's own queue, which a runner's
 * scheduler would otherwise create on its own as it starts. The pg-boss returned only writes.
 */
async function prepareDatabase(database: DatabaseHandle, registry: JobRegistry): Promise<PgBoss> {
  const db = { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) };
  const boss = newBoss(db, { supervise: false, schedule: false });
  await boss.start();
  // A script without parameters runs in one transaction on both drivers (DatabaseHandle.executeSql).
  await database.executeSql(createQueueScript(SCHEDULER_QUEUE, { policy: "standard" }));
  for (const [name, job] of Object.entries(registry)) {
    if (!QUEUE_NAME.test(name)) throw new Error(`A job name takes letters, digits, _ and - only: ${name}`);
    const retry = { ...DEFAULT_RETRY, ...job.retry };
    const options = {
      policy: job.policy ?? "standard",
      retryLimit: retry.limit,
      retryDelay: retry.delaySeconds,
      retryBackoff: retry.backoff,
      expireInSeconds: job.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
    };
    await database.executeSql(createQueueScript(name, options));
    await boss.updateQueue(name, { name, ...options });
  }
  return boss;
}

// enqueue() on a server without a running runner (a bare remix-serve, a test) sends through a
// pg-boss that only writes: no polling, no maintenance, no timers.
const senders = new WeakMap<DatabaseHandle, Promise<PgBoss>>();

function senderFor(database: DatabaseHandle, registry: JobRegistry): Promise<PgBoss> {
  let sender = senders.get(database);
  if (!sender) {
    sender = prepareDatabase(database, registry);
    sender.catch(() => senders.delete(database));
    senders.set(database, sender);
  }
  return sender;
}

/**
 * Queues a job; any server's runner takes it. Resolves with its id, or null when the queue's
 * policy already holds an equal job waiting (a "stately" sweep).
 */
export async function enqueue<N extends JobName>(
  services: AppServices,
  name: N,
  data: JobData<N>,
  options?: EnqueueOptions,
): Promise<string | null> {
  return (await senderFor(services.database, jobs)).send(name, data as object, options ?? {});
}

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
            await job.run(services, job.data.parse(entry.data ?? {}), { id: entry.id, retryCount: entry.retryCount });
          } catch (error) {
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

  // Before this runner's scheduler starts, so it finds its queue made.
  const installer = await prepareDatabase(database, registry);
  await installer.stop({ graceful: false, close: false });
  try {
    await boss.start();
    const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
    for (const [name, job] of Object.entries(registry)) {
      if (job.enabled && !job.enabled(services)) {
        await boss.unschedule(name);
        continue;
      }
      if (job.schedule) await boss.schedule(name, job.schedule);
      else await boss.unschedule(name);
      const workOptions = { includeMetadata: true as const, pollingIntervalSeconds, batchSize: job.batchSize ?? 1 };
      await boss.work<unknown>(name, workOptions, (batch) => runBatch(name, job, batch));
    }
  } catch (error) {
    await boss.stop({ graceful: false, close: false }).catch(() => {});
    throw error;
  }
  const sender = Promise.resolve(boss);
  senders.set(database, sender);
  logger.info({ jobs: Object.keys(registry) }, "job runner started");

  return {
    async stop() {
      const deadline = Date.now() + config.shutdownTimeoutMs;
      await boss.stop({ graceful: true, close: false, timeout: config.shutdownTimeoutMs });
      while ((pending > 0 || running > 0) && Date.now() < deadline) await tick();
      closed = true;
      if (senders.get(database) === sender) senders.delete(database);
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
