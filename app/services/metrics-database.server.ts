import { sql } from "drizzle-orm";
import type { Logger } from "pino";
import { Gauge } from "prom-client";
import { rowsOf, type DatabaseHandle } from "~/db/client.server";
import { backups, memberImports } from "~/db/schema";
import { PREFIX, type Metrics } from "./metrics.server";
import { JOB_SCHEMA } from "./queue.server";

/** The job states a queue's depth is told in: waiting, to be retried, running, given up. */
const QUEUE_STATES = ["created", "retry", "active", "failed"] as const;

/**
 * The series read from the database when Prometheus scrapes: the pool's connections, each
 * queue's jobs by state, a running members import's progress, a running backup's progress and
 * when the last backup was made. A read that fails (the
 * database is away) leaves its series out of that scrape; the others are still answered.
 */
export function watchDatabase(metrics: Metrics, database: DatabaseHandle, logger: Logger) {
  const registers = [metrics.registry];
  const scraped = async (what: string, read: () => Promise<void>) => {
    try {
      await read();
    } catch (error) {
      logger.warn({ err: error }, `metrics: could not read ${what}`);
    }
  };

  // PGlite is one connection inside this process: it has no pool to tell of.
  if (database.driver === "postgres") {
    new Gauge({
      name: `${PREFIX}db_pool_connections`,
      help: "The PostgreSQL pool's open connections, by state (idle, busy)",
      labelNames: ["state"] as const,
      registers,
      collect() {
        const stats = database.poolStats();
        if (!stats) return;
        this.set({ state: "idle" }, stats.idle);
        this.set({ state: "busy" }, stats.total - stats.idle);
      },
    });
    new Gauge({
      name: `${PREFIX}db_pool_waiting_queries`,
      help: "Queries waiting for a free connection of the PostgreSQL pool",
      registers,
      collect() {
        this.set(database.poolStats()?.waiting ?? 0);
      },
    });
  }

  const states = sql.raw(QUEUE_STATES.map((state) => `'${state}'`).join(", "));
  const jobs = sql.raw(JOB_SCHEMA);
  new Gauge({
    name: `${PREFIX}job_queue_jobs`,
    help: "Jobs in each queue by state (created: waiting, retry, active, failed: given up, until archived)",
    labelNames: ["queue", "state"] as const,
    registers,
    async collect() {
      this.reset();
      await scraped("the job queues", async () => {
        const rows = rowsOf<{ queue: string; state: string; jobs: number }>(
          await database.db.execute(
            sql`select q.name as queue, s.state::text as state, count(j.id)::int as jobs
                from ${jobs}.queue q
                cross join unnest(array[${states}]::${jobs}.job_state[]) as s(state)
                left join ${jobs}.job j on j.name = q.name and j.state = s.state
                where not starts_with(q.name, '__pgboss__')
                group by q.name, s.state`,
          ),
        );
        for (const row of rows) this.set({ queue: row.queue, state: row.state }, Number(row.jobs));
      });
    },
  });

  new Gauge({
    name: `${PREFIX}members_import_lines`,
    help: "Lines of the members imports queued or running, by state: all of them, and those done",
    labelNames: ["state"] as const,
    registers,
    async collect() {
      this.reset();
      await scraped("the members imports", async () => {
        const [row] = rowsOf<{ lines: number; done: number }>(
          await database.db.execute(
            sql`select coalesce(sum(${memberImports.total}), 0)::int as lines,
                  coalesce(sum(${memberImports.processed}), 0)::int as done
                from ${memberImports} where ${memberImports.status} in ('queued', 'running')`,
          ),
        );
        this.set({ state: "all" }, row?.lines ?? 0);
        this.set({ state: "done" }, row?.done ?? 0);
      });
    },
  });

  new Gauge({
    name: `${PREFIX}backup_tables`,
    help: "Tables of the backup under way, by state: all of them, and those dumped",
    labelNames: ["state"] as const,
    registers,
    async collect() {
      this.reset();
      await scraped("the backup under way", async () => {
        const [row] = rowsOf<{ total: number; done: number }>(
          await database.db.execute(
            sql`select coalesce(sum(${backups.progressTotal}), 0)::int as total,
                  coalesce(sum(${backups.progressDone}), 0)::int as done
                from ${backups} where ${backups.status} = 'running'`,
          ),
        );
        this.set({ state: "all" }, row?.total ?? 0);
        this.set({ state: "done" }, row?.done ?? 0);
      });
    },
  });

  /** A gauge of one figure read from the backups table at each scrape; absent when `read` gives null. */
  const backupGauge = (name: string, help: string, what: string, read: () => Promise<number | null>) =>
    new Gauge({
      name: `${PREFIX}${name}`,
      help,
      registers,
      async collect() {
        this.reset();
        await scraped(what, async () => {
          const value = await read();
          if (value !== null) this.set(value);
        });
      },
    });
  const one = async (query: ReturnType<typeof sql>) =>
    rowsOf<{ value: number | null }>(await database.db.execute(query))[0]?.value ?? null;

  backupGauge(
    "backup_last_success_timestamp_seconds",
    "When the newest finished backup was done, in seconds since 1970 (0 before the first)",
    "the last backup",
    async () =>
      Number(
        (await one(
          sql`select extract(epoch from max(${backups.finishedAt}))::float8 as value from ${backups} where ${backups.status} = 'done'`,
        )) ?? 0,
      ),
  );
  backupGauge(
    "backup_last_stored_timestamp_seconds",
    "When the newest backup reached the remote store, in seconds since 1970 (0 before the first, and with the local store)",
    "the last backup stored",
    async () =>
      Number(
        (await one(sql`select extract(epoch from max(${backups.storedAt}))::float8 as value from ${backups}`)) ?? 0,
      ),
  );
  backupGauge(
    "backup_last_stored_age_seconds",
    "Seconds since the newest backup reached the remote store (absent before the first)",
    "the last backup stored",
    () =>
      one(sql`select extract(epoch from now() - max(${backups.storedAt}))::float8 as value from ${backups}`).then(
        (value) => (value === null ? null : Number(value)),
      ),
  );
  const lastTest = sql`from ${backups} where ${backups.verifiedAt} is not null order by ${backups.verifiedAt} desc limit 1`;
  backupGauge(
    "backup_test_restore_passed",
    "Whether the newest test restore passed: 1, or 0 when it failed (absent before the first)",
    "the last test restore",
    () =>
      one(sql`select (${backups.verifyStatus} = 'passed')::int as value ${lastTest}`).then((value) =>
        value === null ? null : Number(value),
      ),
  );
  backupGauge(
    "backup_test_restore_timestamp_seconds",
    "When the newest test restore ran, in seconds since 1970 (absent before the first)",
    "the last test restore",
    () =>
      one(sql`select extract(epoch from ${backups.verifiedAt})::float8 as value ${lastTest}`).then((value) =>
        value === null ? null : Number(value),
      ),
  );
}
