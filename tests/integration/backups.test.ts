import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "~/context";
import { backups } from "~/db/schema";
import { applyRetention, dailyBackupJob, failInterruptedBackups } from "~/services/backups/backups.server";
import { fileSha256 } from "~/services/backups/dump.server";
import { createTestDatabase, drivers, type TestDatabase } from "../helpers/db";
import { testContext } from "../helpers/context";

const job = { id: "test", retryCount: 0, signal: new AbortController().signal };
const day = 86_400_000;

/** A process id that no process has any more. */
function deadPid(): number {
  const ended = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(ended.stdout);
}

describe.each(drivers)("backups (%s)", (driver) => {
  let database: TestDatabase;
  let services: AppServices;
  let dir: string;
  const servicesWith = (env: Record<string, string>) =>
    testContext(database, { BACKUP_DIR: dir, ...(database.url ? { DATABASE_URL: database.url } : {}), ...env }).app!;

  beforeAll(async () => {
    database = await createTestDatabase(driver);
    dir = mkdtempSync(path.join(os.tmpdir(), "memberhall-backups-"));
    services = servicesWith({});
  });
  afterAll(async () => {
    await database?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("writes the dump under its name, whole, with its size and SHA-256, and records it done", async () => {
    await dailyBackupJob.run(services, {}, job);
    const [made] = await services.db.select().from(backups);
    expect(made).toMatchObject({ kind: "daily", status: "done", driver, error: null, host: os.hostname() });
    const file = path.join(dir, made!.fileName);
    expect(readdirSync(dir)).toEqual([made!.fileName]);
    expect(made!.sha256).toBe(await fileSha256(file));
    expect(made!.bytes).toBeGreaterThan(1000);
    expect(made!.progressDone).toBe(made!.progressTotal);
    if (driver === "postgres") expect(made!.progressTotal).toBeGreaterThan(40);
    await services.db.delete(backups);
  });

  it("marks a backup failed with its reason, and leaves no file, when it cannot be written", async () => {
    const notADir = path.join(dir, "a-file");
    writeFileSync(notADir, "");
    const failing = servicesWith({ BACKUP_DIR: path.join(notADir, "backups") });
    await expect(dailyBackupJob.run(failing, {}, job)).rejects.toThrow();
    const [failed] = await services.db.select().from(backups);
    expect(failed).toMatchObject({ status: "failed" });
    expect(failed!.error).toMatch(/ENOTDIR|not a directory/);
    await services.db.delete(backups);
  });

  // pg_dump is PostgreSQL's alone: the embedded database has no such test.
  if (driver === "postgres")
    it("says plainly when pg_dump is missing, older than the server, fails part-way, or is stopped with its server", async () => {
      const bin = mkdtempSync(path.join(os.tmpdir(), "memberhall-bin-"));
      const clean = path.join(dir, "clean");
      mkdirSync(clean);
      await expect(dailyBackupJob.run(servicesWith({ PG_BIN_DIR: bin, BACKUP_DIR: clean }), {}, job)).rejects.toThrow();
      const [missing] = await services.db.select().from(backups);
      expect(missing!.error).toMatch(
        new RegExp(
          `^pg_dump was not found \\(in PG_BIN_DIR, ${bin}\\): install PostgreSQL's client tools, version \\d+ or newer$`,
        ),
      );
      await services.db.delete(backups);

      writeFileSync(path.join(bin, "pg_dump"), "#!/bin/sh\necho 'pg_dump (PostgreSQL) 9.6.24'\n");
      chmodSync(path.join(bin, "pg_dump"), 0o755);
      await expect(dailyBackupJob.run(servicesWith({ PG_BIN_DIR: bin, BACKUP_DIR: clean }), {}, job)).rejects.toThrow();
      const [old] = await services.db.select().from(backups);
      expect(old!.error).toMatch(
        /^pg_dump is version 9, older than the PostgreSQL server \(\d+\): install version \d+ or newer/,
      );
      expect(readdirSync(clean)).toEqual([]);
      await services.db.delete(backups);

      // One that fails part-way, its file half written: the half goes, pg_dump's words stay.
      writeFileSync(
        path.join(bin, "pg_dump"),
        [
          "#!/bin/sh",
          'if [ "$1" = "--version" ]; then echo "pg_dump (PostgreSQL) 99.1"; exit 0; fi',
          'for a in "$@"; do case "$a" in --file=*) echo partial > "${a#--file=}";; esac; done',
          "echo 'pg_dump: error: connection to server was lost' >&2",
          "exit 1",
        ].join("\n"),
      );
      await expect(dailyBackupJob.run(servicesWith({ PG_BIN_DIR: bin, BACKUP_DIR: clean }), {}, job)).rejects.toThrow();
      const [cut] = await services.db.select().from(backups);
      expect(cut!.error).toBe("pg_dump failed: connection to server was lost");
      expect(readdirSync(clean)).toEqual([]);
      await services.db.delete(backups);

      // One under way when its server stops: pg_dump is ended, its half file goes, and the row says why.
      writeFileSync(
        path.join(bin, "pg_dump"),
        [
          "#!/bin/sh",
          'if [ "$1" = "--version" ]; then echo "pg_dump (PostgreSQL) 99.1"; exit 0; fi',
          'for a in "$@"; do case "$a" in --file=*) echo partial > "${a#--file=}";; esac; done',
          "exec sleep 30",
        ].join("\n"),
      );
      const stopping = new AbortController();
      const running = dailyBackupJob.run(
        servicesWith({ PG_BIN_DIR: bin, BACKUP_DIR: clean }),
        {},
        {
          ...job,
          signal: stopping.signal,
        },
      );
      const started = Date.now();
      while (readdirSync(clean).length === 0 && Date.now() - started < 10_000)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(readdirSync(clean)).toHaveLength(1);
      stopping.abort();
      await expect(running).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(10_000);
      const [stopped] = await services.db.select().from(backups);
      expect(stopped).toMatchObject({ status: "failed", error: "The server stopped during the backup." });
      expect(readdirSync(clean)).toEqual([]);
      await services.db.delete(backups);
    });

  it("takes one backup at a time: a daily backup while another runs is not made", async () => {
    await services.db.insert(backups).values({
      kind: "manual",
      status: "running",
      driver,
      fileName: "under-way",
      host: "elsewhere",
      pid: 1,
      heartbeatAt: new Date(),
    });
    await dailyBackupJob.run(services, {}, job);
    const rows = await services.db.select().from(backups);
    expect(rows.map((row) => row.fileName)).toEqual(["under-way"]);
    await services.db.delete(backups);
  });

  it("marks failed at the next start a backup whose process on this host is gone, and one whose heartbeat stopped", async () => {
    const base = { kind: "manual" as const, status: "running" as const, driver, fileName: "x" };
    const [gone] = await services.db
      .insert(backups)
      .values({ ...base, host: os.hostname(), pid: deadPid(), heartbeatAt: new Date() })
      .returning();
    expect(await failInterruptedBackups(services)).toBe(1);
    const [stale] = await services.db
      .insert(backups)
      .values({ ...base, host: "another-server", pid: 1, heartbeatAt: new Date(Date.now() - 10 * 60_000) })
      .returning();
    expect(await failInterruptedBackups(services)).toBe(1);
    const [alive] = await services.db
      .insert(backups)
      .values({ ...base, host: "another-server", pid: 1, heartbeatAt: new Date() })
      .returning();
    expect(await failInterruptedBackups(services)).toBe(0);
    const status = async (id: string) => (await services.db.select().from(backups).where(eq(backups.id, id)))[0]!;
    expect(await status(gone!.id)).toMatchObject({
      status: "failed",
      error: `The server (${os.hostname()}) stopped during the backup.`,
    });
    expect(await status(stale!.id)).toMatchObject({ status: "failed" });
    expect(await status(alive!.id)).toMatchObject({ status: "running" });
    await services.db.delete(backups);
  });

  it("deletes the daily backups past their retention, files and rows, and keeps the manual ones", async () => {
    const at = (days: number) => new Date(Date.now() - days * day);
    const rows = [
      { kind: "daily" as const, fileName: "old-daily", createdAt: at(20) },
      { kind: "daily" as const, fileName: "new-daily", createdAt: at(1) },
      { kind: "manual" as const, fileName: "old-manual", createdAt: at(90) },
    ];
    for (const row of rows) writeFileSync(path.join(dir, row.fileName), "backup");
    await services.db.insert(backups).values(rows.map((row) => ({ ...row, status: "done" as const, driver })));
    expect(await applyRetention(services)).toBe(1);
    const kept = await services.db.select({ fileName: backups.fileName }).from(backups);
    expect(kept.map((row) => row.fileName).sort()).toEqual(["new-daily", "old-manual"]);
    expect(existsSync(path.join(dir, "old-daily"))).toBe(false);
    expect(existsSync(path.join(dir, "old-manual"))).toBe(true);
    await services.db.delete(backups);
  });
});
