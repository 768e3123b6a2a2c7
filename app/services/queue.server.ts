import PgBoss from "pg-boss";
import { z } from "zod";
import type { AppServices } from "~/context";
import type { DatabaseHandle } from "~/db/client.server";
import { SINGLE_LOCK } from "~/db/locks";

/**
 * The queue of background work, below the services: a service defines its jobs and queues
 * them here, and the runner (jobs.server.ts), above every service, takes them. Imports so
 * run one way. Jobs live on pg-boss in the app's own database: every server runs the runner,
 * and a job runs once however many servers there are (docs/decisions/009-jobs-on-pg-boss.md).
 */

/** One kind of background work: its name, the data it takes, what it does, how it repeats and retries. */
export type JobDefinition<Data> = {
  /** The queue's name: letters, digits, _ and -. */
  name: string;
  /** Checked when the job runs: a queued job can outlive the deploy that queued it. */
  data: z.ZodType<Data, z.ZodTypeDef, unknown>;
  /**
   * `signal` is aborted when this server stops: work that goes on for long stops at its next
   * whole step and leaves the rest to a job it queues, which another server (or this one, once
   * back) takes.
   */
  run(services: AppServices, data: Data, job: { id: string; retryCount: number; signal: AbortSignal }): Promise<void>;
  /** A cron line (UTC) for work that repeats, or the configuration's; one job per tick across all servers. */
  schedule?: string | ((services: AppServices) => string);
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

type Sweep = JobDefinition<Record<string, never>>;

/**
 * A sweep: work that repeats on its schedule and takes no data, at most one waiting and one
 * running at a time across the servers.
 */
export function sweepJob<D extends Omit<Sweep, "data" | "policy"> & Required<Pick<Sweep, "schedule">>>(definition: D) {
  return { ...definition, data: z.object({}), policy: "stately" as const } satisfies Sweep;
}

/** What queueing a job needs of its definition. */
export type QueuedJob = Pick<JobDefinition<unknown>, "name" | "retry" | "timeoutSeconds" | "policy"> & {
  data: z.ZodTypeAny;
};

export type EnqueueOptions = Pick<PgBoss.SendOptions, "startAfter" | "singletonKey" | "priority">;

export const JOB_SCHEMA = "pgboss";

const DEFAULT_RETRY = { limit: 3, delaySeconds: 30, backoff: true };
const DEFAULT_TIMEOUT_SECONDS = 15 * 60;

export function newBoss(db: PgBoss.Db, options: PgBoss.ConstructorOptions = {}): PgBoss {
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
 * Creates a job's queue once, giving it today's settings (a deploy may change them).
 * pg-boss's create_queue attaches a partition and a foreign key, and two servers creating
 * queues at the same time deadlock on PostgreSQL, so creation runs one at a time under an
 * advisory lock.
 */
async function createQueue(database: DatabaseHandle, boss: PgBoss, job: QueuedJob) {
  if (!QUEUE_NAME.test(job.name)) throw new Error(`A job name takes letters, digits, _ and - only: ${job.name}`);
  const retry = { ...DEFAULT_RETRY, ...job.retry };
  const options = {
    policy: job.policy ?? "standard",
    retryLimit: retry.limit,
    retryDelay: retry.delaySeconds,
    retryBackoff: retry.backoff,
    expireInSeconds: job.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS,
  };
  // A script without parameters runs in one transaction on both drivers (DatabaseHandle.executeSql).
  await database.executeSql(createQueueScript(job.name, options));
  await boss.updateQueue(job.name, { name: job.name, ...options });
}

/**
 * Installs pg-boss's schema and creates the given jobs' queues, with the scheduler's own
 * queue, which a runner's scheduler would otherwise create on its own as it starts (and so
 * outside the lock). The pg-boss returned only writes.
 */
export async function installQueues(database: DatabaseHandle, jobs: readonly QueuedJob[]): Promise<PgBoss> {
  const db = { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) };
  const boss = newBoss(db, { supervise: false, schedule: false });
  await database.exclusively(SINGLE_LOCK.jobSchema, () => boss.start());
  await database.executeSql(createQueueScript(SCHEDULER_QUEUE, { policy: "standard" }));
  for (const job of jobs) await createQueue(database, boss, job);
  return boss;
}

type Sender = { boss: Promise<PgBoss>; queues: Map<string, Promise<void>> };

// enqueue() on a server without a running runner (a bare remix-serve, a test) sends through a
// pg-boss that only writes: no polling, no maintenance, no timers.
const senders = new WeakMap<DatabaseHandle, Sender>();

function senderFor(database: DatabaseHandle): Sender {
  let sender = senders.get(database);
  if (!sender) {
    const boss = installQueues(database, []);
    const made: Sender = { boss, queues: new Map() };
    boss.catch(() => {
      if (senders.get(database) === made) senders.delete(database);
    });
    senders.set(database, made);
    sender = made;
  }
  return sender;
}

/** This server's runner sends through its own pg-boss, which made every queue it takes. */
export function sendThroughRunner(database: DatabaseHandle, boss: PgBoss, jobs: readonly QueuedJob[]): () => void {
  const sender: Sender = {
    boss: Promise.resolve(boss),
    queues: new Map(jobs.map((job) => [job.name, Promise.resolve()])),
  };
  senders.set(database, sender);
  return () => {
    if (senders.get(database) === sender) senders.delete(database);
  };
}

/**
 * Queues a job; any server's runner takes it. Resolves with its id, or null when the queue's
 * policy already holds an equal job waiting (a "stately" sweep).
 */
export async function enqueue<J extends QueuedJob>(
  services: AppServices,
  job: J,
  data: z.input<J["data"]>,
  options?: EnqueueOptions,
): Promise<string | null> {
  const sender = senderFor(services.database);
  const boss = await sender.boss;
  let queue = sender.queues.get(job.name);
  if (!queue) {
    queue = createQueue(services.database, boss, job);
    queue.catch(() => sender.queues.delete(job.name));
    sender.queues.set(job.name, queue);
  }
  await queue;
  return boss.send(job.name, data as object, options ?? {});
}
