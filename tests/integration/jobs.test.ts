import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { AppServices } from "~/context";
import { openDatabase, type DatabaseHandle } from "~/db/client.server";
import { loader as jobsPage } from "~/routes/admin_.jobs";
import { listJobs, startJobs, type JobRunner } from "~/services/jobs.server";
import { mailRetryJob } from "~/services/mail.server";
import { enqueue, JOB_SCHEMA, type JobDefinition } from "~/services/queue.server";
import { siteCookies } from "~/services/session.server";
import { testContext } from "../helpers/context";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { createSession, createUser } from "../helpers/users";

// pg-boss's shortest polling interval: keeps the suite quick without changing what is tested.
const POLL = { pollingIntervalSeconds: 0.5 };

const servicesOver = (database: DatabaseHandle, env: Record<string, string> = {}): AppServices =>
  testContext(database, { SHUTDOWN_TIMEOUT_MS: "5000", ...env }).app!;

describe.each(drivers)("the job runner on %s", (driver) => {
  let database: TestDatabase;
  // The second server: on PGlite the same connection (one process owns the data directory),
  // on PostgreSQL a pool of its own to the same database.
  let secondHandle: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    secondHandle =
      driver === "postgres" ? await openDatabase({ driver: "postgres", url: database.url!, poolMax: 4 }) : database;
  });
  afterAll(async () => {
    if (secondHandle !== database) await secondHandle?.close();
    await database?.dispose();
  });

  describe("with two runners on one database", () => {
    const executions = new Map<string, number>();
    const byRunner = { first: 0, second: 0 };
    const failingTries: number[] = [];

    const testJobs = (runner: keyof typeof byRunner) => ({
      count: {
        name: "count",
        data: z.object({ n: z.number().int() }),
        batchSize: 20,
        async run(_services, _data, job) {
          executions.set(job.id, (executions.get(job.id) ?? 0) + 1);
          byRunner[runner] += 1;
        },
      } satisfies JobDefinition<{ n: number }>,
      explode: {
        name: "explode",
        data: z.object({}),
        retry: { limit: 1, delaySeconds: 1 },
        async run() {
          failingTries.push(Date.now());
          throw new Error("the provider said no");
        },
      } satisfies JobDefinition<Record<string, never>>,
    });
    let first: JobRunner<ReturnType<typeof testJobs>>;
    let second: JobRunner<ReturnType<typeof testJobs>>;

    beforeAll(async () => {
      [first, second] = await Promise.all([
        startJobs(servicesOver(database), { ...POLL, jobs: testJobs("first") }),
        startJobs(servicesOver(secondHandle), { ...POLL, jobs: testJobs("second") }),
      ]);
    });
    afterAll(async () => {
      await Promise.all([first?.stop(), second?.stop()]);
    });

    it("runs each of 100 queued jobs exactly once, shared between the runners", async () => {
      const ids = await Promise.all(Array.from({ length: 100 }, (_, n) => first.enqueue("count", { n })));
      expect(new Set(ids).size).toBe(100);
      await expect
        .poll(async () => (await listJobs(servicesOver(database), { state: "completed", limit: 500 })).length, {
          timeout: 20_000,
          interval: 100,
        })
        .toBe(100);
      expect([...executions.keys()].sort()).toEqual([...ids].sort());
      expect([...executions.values()].every((count) => count === 1)).toBe(true);
      expect(byRunner.first).toBeGreaterThan(0);
      expect(byRunner.second).toBeGreaterThan(0);
    });

    // PGlite has one process and no deadlock statistics: the check is PostgreSQL's alone.
    if (driver === "postgres") {
      it("started together, hit no deadlock in the database (not even one pg-boss swallows)", async () => {
        // Each server process reports its deadlocks to the statistics within a second or two.
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        const { rows } = await database.executeSql(
          "select deadlocks from pg_stat_database where datname = current_database()",
        );
        expect(Number(rows[0]?.deadlocks)).toBe(0);
      });
    }

    it("retries a job that throws after its delay, then marks it failed with the error for admins", async () => {
      const id = await second.enqueue("explode", {});
      const failed = async () =>
        (await listJobs(servicesOver(database), { state: "failed" })).find((job) => job.id === id);
      await expect.poll(failed, { timeout: 20_000, interval: 100 }).toBeDefined();
      expect(failingTries).toHaveLength(2);
      expect(failingTries[1]! - failingTries[0]!).toBeGreaterThanOrEqual(900);
      expect(await failed()).toMatchObject({ name: "explode", retryCount: 1, error: "the provider said no" });
      const recent = await listJobs(servicesOver(database));
      expect(recent.find((job) => job.id === id)?.state).toBe("failed");
    });

    it("shows the failed jobs on /admin/jobs to admins only", async () => {
      await expect.poll(async () => (await listJobs(servicesOver(database), { state: "failed" })).length).toBe(1);
      const context = testContext(database);
      const open = async (admin: boolean, search = "") => {
        const user = await createUser(database.db, { admin });
        const cookie = await siteCookies(context.app!.config).session.serialize(
          (await createSession(database.db, user.id)).id,
        );
        const request = new Request(`http://localhost/admin/jobs${search}`, { headers: { cookie } });
        return (await jobsPage({ request, params: {}, context }).catch((thrown: Response) => thrown)) as Response;
      };
      expect((await open(false)).status).toBe(403);
      const page = await (await open(true)).json();
      expect(page.failed).toHaveLength(1);
      expect(page.failed[0]).toMatchObject({ name: "explode", state: "failed", error: "the provider said no" });
      const completed = await (await open(true, "?state=completed")).json();
      expect(completed.recent.every((job: { state: string }) => job.state === "completed")).toBe(true);
      expect((await open(true, "?state=everything")).status).toBe(404);
    });
  });

  it("lets a running job finish when it stops, and takes no new one", async () => {
    const ran: string[] = [];
    let release: () => void = () => {};
    const slowJobs = {
      slow: {
        name: "slow",
        data: z.object({ label: z.string() }),
        async run(_services, { label }) {
          ran.push(`${label} started`);
          if (label === "first") await new Promise<void>((resolve) => (release = resolve));
          ran.push(`${label} finished`);
        },
      } satisfies JobDefinition<{ label: string }>,
    };
    const runner = await startJobs(servicesOver(database), { ...POLL, jobs: slowJobs });
    const id = await runner.enqueue("slow", { label: "first" });
    await expect.poll(() => ran, { timeout: 10_000, interval: 50 }).toContain("first started");
    const stopped = runner.stop();
    await runner.enqueue("slow", { label: "second" });
    setTimeout(() => release(), 300);
    await stopped;
    expect(ran).toEqual(["first started", "first finished"]);
    const [job] = (await listJobs(servicesOver(database), { state: "completed", limit: 500 })).filter(
      (j) => j.id === id,
    );
    expect(job?.name).toBe("slow");
  });

  describe("the e-mail retry sweep", () => {
    const smtp = { MAIL: "smtp", SMTP_URL: "smtp://127.0.0.1:2525", MAIL_FROM: "no-reply@members.example.org" };
    const schedules = async () =>
      (await database.executeSql(`select name, cron from ${JOB_SCHEMA}.schedule order by name`)).rows;

    it("runs every minute with SMTP and calls the mail provider's retryPending", async () => {
      const services = servicesOver(database, smtp);
      const retryPending = vi.fn(async () => ({ sent: 0, failed: 0 }));
      services.providers.mail.retryPending = retryPending;
      const runner = await startJobs(services, POLL);
      try {
        expect(await schedules()).toContainEqual({ name: "mail-retry-pending", cron: "* * * * *" });
        await enqueue(services, mailRetryJob, {});
        await expect.poll(() => retryPending.mock.calls.length, { timeout: 10_000, interval: 50 }).toBe(1);
      } finally {
        await runner.stop();
      }
    });

    it("is not scheduled when e-mail stays in the outbox", async () => {
      const runner = await startJobs(servicesOver(database, { MAIL: "outbox" }), POLL);
      await runner.stop();
      expect((await schedules()).map((row) => row.name)).not.toContain("mail-retry-pending");
    });
  });
});
